import Foundation
import InputDevices
import LinuxInput
import Logging
import Synchronization
import TenFootProtocol
import Testing
import ZeroMQ

@testable import RemoteCore

/// The HDMI-CEC runner on its event loop, without an adapter: a pipe stands for the adapter's
/// descriptor (a byte written: a message queued) and `receive` hands out the queued messages,
/// stamped on the remote's clock as the kernel stamps them. The broker records what the remote
/// sends.
@Suite("HDMI-CEC runner on its event loop", .serialized)
struct CECRunnerTests {
  /// Runs a runner on this thread while `feed` posts messages from another, until the broker
  /// has `until` key events (bounded: 5 s); returns them.
  private func run(
    until done: @escaping @Sendable ([Tenfoot_V1_KeyEvent]) -> Bool,
    feed: @escaping @Sendable (_ post: (CECAdapter.Message) -> Void) -> Void
  ) throws -> [Tenfoot_V1_KeyEvent] {
    let context = try Context()
    let broker = try LateBroker(context: context, delay: .zero)
    defer { broker.stop() }
    let remote = try RemoteClient(
      context: context, endpoint: broker.endpoint, screen: "main", timeout: .seconds(5))
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    defer { for fd in fds { close(fd) } }
    let queue = Mutex<[CECAdapter.Message]>([])
    let reader = fds[0]
    let writer = fds[1]
    let runner = try CECRunner(
      client: remote, device: "/dev/cec-test", fileDescriptor: reader,
      receive: { _ in
        var byte: UInt8 = 0
        guard read(reader, &byte, 1) == 1 else { return nil }
        return queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
      },
      logger: Logger(label: "test.cec"), report: { _ in })
    let stopper = runner.stopper
    let timedOut = Mutex(false)
    Thread {
      feed { message in
        queue.withLock { $0.append(message) }
        var byte: UInt8 = 1
        _ = write(writer, &byte, 1)
      }
      if !broker.waitForKeys(until: .now() + 5, done) { timedOut.withLock { $0 = true } }
      stopper.stop()
    }.start()
    try runner.run()
    let events = broker.keyEvents
    #expect(!timedOut.withLock { $0 }, "the remote sent only \(events.map(\.phase)) in 5 s")
    return events
  }

  @Test("a Pressed without Released: held ticks every 50 ms, released by the 550 ms safety timeout")
  func safetyRelease() throws {
    let pressedAt = Mutex<UInt64>(0)
    let events = try run(until: { $0.last?.phase == .up }) { post in
      // A malformed message first: refused and logged, the runner carries on.
      post(CECAdapter.Message(bytes: [0x04, 0x44], time: MonotonicClock.nanoseconds()))
      let now = MonotonicClock.nanoseconds()
      pressedAt.withLock { $0 = now }
      post(CECAdapter.Message(bytes: [0x04, 0x44, 0x04], time: now))
    }
    let start = pressedAt.withLock { $0 }
    #expect(events.first?.phase == .down && events.first?.key == .right, "\(events)")
    #expect(events.first?.timestampNs == start)
    #expect(events.last?.timestampNs == start + CECTranslator.safetyTimeout, "\(events)")
    let held = Array(events.dropFirst().dropLast())
    #expect(held.allSatisfy { $0.phase == .held }, "\(events.map(\.phase))")
    let expected: [UInt64] = (1...10).map { start + UInt64($0) * 50_000_000 }
    #expect(held.map(\.timestampNs) == expected, "held ticks every 50 ms from the press")
    #expect(held.count == 10, "ticks at 50…500 ms: \(held.count)")
  }

  @Test("Released ends the key at its own time, and the ticks stop")
  func released() throws {
    let times = Mutex<[UInt64]>([])
    let events = try run(until: { $0.last?.phase == .up }) { post in
      let down = MonotonicClock.nanoseconds()
      post(CECAdapter.Message(bytes: [0x04, 0x44, 0x00], time: down))
      Thread.sleep(forTimeInterval: 0.12)  // The key is held for this long: what is tested.
      let up = MonotonicClock.nanoseconds()
      post(CECAdapter.Message(bytes: [0x04, 0x45], time: up))
      times.withLock { $0 = [down, up] }
    }
    let stamps = times.withLock { $0 }
    #expect(events.map(\.key).allSatisfy { $0 == .select })
    #expect(events.first?.timestampNs == stamps.first)
    #expect(events.last?.timestampNs == stamps.last)
    // A tick every 50 ms while the key was down (at 50 and 100 ms unless the machine was slow
    // to post the Released), none after it.
    let ticks = Int((stamps[1] - stamps[0] - 1) / 50_000_000)
    #expect(events.filter { $0.phase == .held }.count == ticks, "\(events)")
  }
}
