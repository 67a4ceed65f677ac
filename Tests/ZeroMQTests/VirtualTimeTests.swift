import Foundation
import Synchronization
import Testing
import ZeroMQ

/// The event loop on a `ManualClock`: time moves only when the test says, timers fire at
/// their own deadlines, and nothing sleeps (an hour of virtual time passes at once).
@Suite("Event loop on virtual time")
struct VirtualTimeTests {
  @Test("advance(by:) steps through each due deadline in order, with now at that deadline")
  func advanceStepsThroughDeadlines() throws {
    let clock = ManualClock()
    let loop = try EventLoop(clock: .manual(clock))
    let start = loop.now
    var fired: [Duration] = []
    func every(_ interval: Duration) {
      loop.schedule(after: interval) {
        fired.append(start.duration(to: loop.now))
        every(interval)
      }
    }
    every(.seconds(600))
    loop.schedule(at: start + .seconds(1500)) { fired.append(.seconds(-1)) }
    try loop.advance(by: .seconds(599))
    #expect(fired == [], "a timer fired before its deadline")
    try loop.advance(by: .seconds(3001))
    #expect(
      fired == [600, 1200, -1, 1800, 2400, 3000, 3600].map { Duration.seconds($0) },
      "fired at \(fired)")
    #expect(start.duration(to: loop.now) == .seconds(3600))
    #expect(loop.nextDeadline == start + .seconds(4200))
  }

  @Test("advance(by:) dispatches a readable socket without waiting for time to pass")
  func advanceDispatchesReadable() throws {
    let context = try Context()
    let pull = try Socket(context, .pull)
    let push = try Socket(context, .push)
    try pull.bind("inproc://virtual-time-readable")
    try push.connect("inproc://virtual-time-readable")
    try push.send("ready")
    #expect(try pull.awaitInput(until: .now + .seconds(5)), "nothing arrived within 5 s")
    let loop = try EventLoop(clock: .manual(ManualClock()))
    var received: [String] = []
    loop.whenReadable(pull) {
      while let frame = try pull.receive(dontWait: true) {
        received.append(String(decoding: frame, as: UTF8.self))
      }
    }
    // A timer an hour away: a loop that waited for it on the real clock would hang here.
    loop.schedule(after: .seconds(3600)) {}
    try loop.advance(by: .zero)
    #expect(received == ["ready"])
  }

  @Test("a loop running on another thread fires a timer when its clock is advanced past it")
  func advanceFromAnotherThread() throws {
    let clock = ManualClock()
    let log = EventLog()
    let stopper = try LoopStopper()
    Thread {
      let loop = EventLoop(stopper: stopper, clock: .manual(clock))
      loop.schedule(after: .seconds(3600)) { log.append("fired") }
      loop.eachIteration { log.append("iteration") }
      log.append("ready")
      do { try loop.run() } catch { log.append("error \(error)") }
      log.append("ended")
    }.start()
    defer {
      stopper.stop()
      #expect(log.await { $0.last == "ended" }, "the loop did not end within 5 s")
    }
    #expect(log.await { $0 == ["ready"] }, "the loop thread did not start within 5 s")
    clock.advance(by: .seconds(3599))
    #expect(log.await { $0.count == 2 }, "the loop did not wake within 5 s")
    #expect(log.entries == ["ready", "iteration"], "fired a second early")
    clock.advance(by: .seconds(1))
    #expect(
      log.await { $0.contains("fired") }, "not fired at its deadline: \(log.entries)")
  }
}

/// A list of what a loop thread did, awaited (bounded) from the test's thread.
final class EventLog: Sendable {
  private let list = Mutex<[String]>([])
  private let changed = NSCondition()

  func append(_ entry: String) {
    list.withLock { $0.append(entry) }
    changed.lock()
    changed.broadcast()
    changed.unlock()
  }

  var entries: [String] { list.withLock { $0 } }

  /// Waits up to 5 s for `condition` to hold of the entries.
  func await(_ condition: ([String]) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(5)
    changed.lock()
    defer { changed.unlock() }
    while !condition(entries) {
      if !changed.wait(until: deadline) { return condition(entries) }
    }
    return true
  }
}
