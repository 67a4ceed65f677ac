import Foundation
import Synchronization
import Testing
import ZeroMQ

/// The event loop with real sockets: readiness, timers, the waker, stopping, signals.
///
/// Every loop here has a guard timer that throws `LoopTimedOut` after a few seconds, so a
/// loop that fails to stop ends the test with a message instead of hanging it.
@Suite("Event loop: readiness, timers, waker, stop, signals")
struct EventLoopTests {
  let context: Context

  init() throws { context = try Context() }

  /// A loop whose run fails after `seconds` instead of hanging the test.
  private func boundedLoop(_ what: String, seconds: Int = 5) throws -> EventLoop {
    let loop = try EventLoop()
    loop.schedule(after: .seconds(seconds)) { throw LoopTimedOut(what: what, seconds: seconds) }
    return loop
  }

  /// A PULL socket over `transport` with `messages` queued, and the PUSH that sent them.
  private func queuedPull(_ transport: Transport, messages: [String]) throws -> (Socket, Socket) {
    let pull = try Socket(context, .pull)
    let push = try Socket(context, .push)
    try push.connect(try pull.bindFresh(transport))
    for message in messages { try push.send(message) }
    // Queued and visible to zmq_poll before the loop starts (ipc delivers asynchronously).
    #expect(try pull.awaitInput(until: .now + .seconds(5)), "nothing arrived within 5 s")
    return (pull, push)
  }

  @Test(
    "readable sockets are dispatched in registration order, again while input is left",
    arguments: [Transport.inproc, .ipc])
  func readinessDispatch(_ transport: Transport) throws {
    let (first, firstPush) = try queuedPull(transport, messages: ["a1", "a2", "a3"])
    let (second, secondPush) = try queuedPull(transport, messages: ["b1"])
    let loop = try boundedLoop("three messages on the first socket")
    var seen: [String] = []
    // One message per call: the loop must call again while input is queued.
    loop.whenReadable(first) {
      guard let frame = try first.receive(dontWait: true) else { return }
      seen.append(String(decoding: frame, as: UTF8.self))
      if seen.filter({ $0.hasPrefix("a") }).count == 3 { loop.stopper.stop() }
    }
    loop.whenReadable(second) {
      while let frame = try second.receive(dontWait: true) {
        seen.append(String(decoding: frame, as: UTF8.self))
      }
    }
    try withExtendedLifetime((firstPush, secondPush)) { try loop.run() }
    #expect(seen == ["a1", "b1", "a2", "a3"])
  }

  @Test("a raw file descriptor's handler runs when it is readable")
  func fileDescriptor() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    defer { for fd in fds { close(fd) } }
    let loop = try boundedLoop("a byte on a pipe")
    var read: [UInt8] = []
    loop.whenReadable(fileDescriptor: fds[0]) {
      var byte: UInt8 = 0
      if Glibc.read(fds[0], &byte, 1) == 1 { read.append(byte) }
      loop.stopper.stop()
    }
    // Written once the loop runs: a timer fires in its first iteration.
    loop.schedule(after: .zero) {
      var byte: UInt8 = 42
      #expect(write(fds[1], &byte, 1) == 1)
    }
    try loop.run()
    #expect(read == [42])
  }

  @Test("a stopped descriptor's handler is not called again, even later in the same iteration")
  func stopReading() throws {
    var pipes: [[Int32]] = []
    for _ in 0..<3 {
      var fds: [Int32] = [0, 0]
      #expect(pipe(&fds) == 0)
      pipes.append(fds)
    }
    defer { for fd in pipes.joined() { close(fd) } }
    let loop = try boundedLoop("bytes on three pipes")
    var calls: [Int] = []
    var ids: [EventLoop.ReadID] = []
    for (index, fds) in pipes.enumerated() {
      // Not read: a handler that is still registered is called again at every iteration.
      ids.append(
        loop.whenReadable(fileDescriptor: fds[0]) {
          calls.append(index)
          // The first stops the second within the iteration that finds both readable.
          if index == 0 { loop.stopReading(ids[1]) }
          if calls.count(where: { $0 == 2 }) == 3 { loop.stopper.stop() }
        })
    }
    for fds in pipes {
      var byte: UInt8 = 1
      #expect(write(fds[1], &byte, 1) == 1)
    }
    try loop.run()
    #expect(calls == [0, 2, 0, 2, 0, 2], "\(calls)")
    // Stopped twice, or stopped after the poll item was removed: nothing happens.
    loop.stopReading(ids[1])
  }

  @Test("a pipe whose writer closed is dispatched (the read sees its end), not polled forever")
  func hangUp() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    defer { close(fds[0]) }
    close(fds[1])
    let loop = try boundedLoop("the hang-up")
    var reads: [Int] = []
    loop.whenReadable(fileDescriptor: fds[0]) {
      var byte: UInt8 = 0
      reads.append(Glibc.read(fds[0], &byte, 1))
      loop.stopper.stop()
    }
    try loop.run()
    #expect(reads == [0], "the handler read the end of the pipe")
  }

  @Test("timers fire in deadline order, equal deadlines in scheduling order, never early")
  func timerOrder() throws {
    let loop = try boundedLoop("the timers")
    let start = loop.now
    var fired: [(name: String, late: Bool)] = []
    func timer(_ name: String, _ milliseconds: Int) {
      let deadline = start + .milliseconds(milliseconds)
      loop.schedule(at: deadline) { fired.append((name, loop.now >= deadline)) }
    }
    timer("c", 60)
    timer("a", 20)
    timer("d", 60)
    timer("b", 40)
    let cancelled = loop.schedule(at: start + .milliseconds(30)) { fired.append(("x", true)) }
    loop.cancel(cancelled)
    loop.schedule(at: start + .milliseconds(80)) { loop.stopper.stop() }
    try loop.run()
    #expect(fired.map(\.name) == ["a", "b", "c", "d"])
    let onTime = fired.allSatisfy { $0.late }
    #expect(onTime, "a timer fired before its deadline: \(fired)")
    #expect(loop.nextDeadline != nil, "the guard timer is still pending")
  }

  @Test("a timer that reschedules itself at once does not starve a readable socket")
  func zeroDelayTimerDoesNotStarve() throws {
    let (pull, push) = try queuedPull(.inproc, messages: ["ready"])
    let loop = try boundedLoop("the socket behind a busy timer")
    var ticks = 0
    func tick() {
      ticks += 1
      loop.schedule(after: .zero) { tick() }
    }
    tick()
    var received = false
    loop.whenReadable(pull) {
      received = try pull.receive(dontWait: true) != nil
      loop.stopper.stop()
    }
    try withExtendedLifetime(push) { try loop.run() }
    #expect(received)
    #expect(ticks >= 1 && ticks <= 3, "the timer ran \(ticks) times before the socket")
  }

  @Test("another thread's wake-up runs the woken handler on the loop's thread")
  func waker() throws {
    let loop = try boundedLoop("the wake-up")
    let loopThread = pthread_self()
    let waker = loop.stopper.waker
    var wokenOnLoopThread: Bool?
    loop.whenWoken {
      wokenOnLoopThread = pthread_equal(pthread_self(), loopThread) != 0
      loop.stopper.stop()
    }
    // The other thread starts only once the loop runs (its first iteration fires this).
    loop.schedule(after: .zero) { Thread { waker.wake() }.start() }
    try loop.run()
    #expect(wokenOnLoopThread == true)
  }

  @Test("stop() from another thread ends a loop waiting with nothing to do")
  func stopFromAnotherThread() throws {
    let loop = try boundedLoop("stop() from another thread")
    let stopper = loop.stopper
    var handlersAfterStop = 0
    loop.schedule(after: .zero) { Thread { stopper.stop() }.start() }
    loop.eachIteration { if stopper.isStopped { handlersAfterStop += 1 } }
    let started = ContinuousClock.now
    try loop.run()
    #expect(stopper.isStopped)
    // The loop checks the stop before each handler, but the other thread may stop it between
    // that check and the handler's own: at most that one handler sees the stop (a loop that
    // went on running handlers after it would count more, one an iteration).
    #expect(handlersAfterStop <= 1, "handlers ran after the stop: \(handlersAfterStop)")
    #expect(ContinuousClock.now - started < .seconds(5))
    // Stopped for good: a second run returns at once.
    try loop.run()
  }

  @Test("stop() inside a handler skips the handlers left in that iteration")
  func stopInsideHandler() throws {
    let (first, firstPush) = try queuedPull(.inproc, messages: ["one"])
    let (second, secondPush) = try queuedPull(.inproc, messages: ["two"])
    let loop = try boundedLoop("the stop")
    var calls: [String] = []
    loop.whenReadable(first) {
      calls.append("first")
      loop.stopper.stop()
    }
    loop.whenReadable(second) { calls.append("second") }
    loop.eachIteration { calls.append("iteration") }
    try withExtendedLifetime((firstPush, secondPush)) { try loop.run() }
    #expect(calls == ["first"])
  }

  @Test("a handler's error ends run() with that error")
  func handlerError() throws {
    let (pull, push) = try queuedPull(.inproc, messages: ["boom"])
    let loop = try boundedLoop("the error")
    loop.whenReadable(pull) { throw HandlerFailed() }
    #expect(throws: HandlerFailed.self) { try withExtendedLifetime(push) { try loop.run() } }
  }

  @Test("a signal that interrupts the wait is retried: no error, the timer still fires on time")
  func interruptedBySignal() throws {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in signalsTaken.add(1, ordering: .relaxed) }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0  // no SA_RESTART: poll(2) fails with EINTR either way
    var previous = sigaction()
    #expect(sigaction(SIGUSR2, &action, &previous) == 0)
    defer { sigaction(SIGUSR2, &previous, nil) }
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, SIGUSR2)
    var previousMask = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &unblock, &previousMask)
    defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }

    let loop = try boundedLoop("the interrupted wait")
    let taskPath = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
    let loopThread = pthread_self()
    let before = signalsTaken.load(ordering: .relaxed)
    let sent = Atomic<Bool>(false)
    let deadline = loop.now + .milliseconds(400)
    var firedAt: ContinuousClock.Instant?
    loop.schedule(at: deadline) {
      firedAt = loop.now
      loop.stopper.stop()
    }
    // Once the loop runs, another thread waits until it sleeps in poll(2) (x86-64 7, or
    // ppoll 271; /proc shows the blocked syscall's number) and signals it there.
    loop.schedule(after: .zero) {
      let path = "/proc/\(taskPath)/syscall"
      Thread {
        while ContinuousClock.now < deadline {
          let call = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
          if call.hasPrefix("7 ") || call.hasPrefix("271 ") {
            pthread_kill(loopThread, SIGUSR2)
            sent.store(true, ordering: .relaxed)
            return
          }
          sched_yield()
        }
      }.start()
    }
    try loop.run()
    let signalled = sent.load(ordering: .relaxed)
    let taken = signalsTaken.load(ordering: .relaxed) - before
    #expect(signalled, "the loop thread was never seen waiting in poll")
    #expect(taken == 1, "the signal was not handled")
    let fired = try #require(firedAt, "the timer never fired")
    #expect(fired >= deadline, "the interrupted wait ended the timer early")
  }
}

/// Signals the EINTR test's handler took (a handler cannot capture context).
private let signalsTaken = Atomic<Int>(0)

struct LoopTimedOut: Error, CustomStringConvertible {
  let what: String
  let seconds: Int
  var description: String { "the loop did not get \(what) within \(seconds) s" }
}

struct HandlerFailed: Error {}
