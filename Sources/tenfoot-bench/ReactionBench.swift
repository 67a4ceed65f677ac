import Foundation
import TenFootClient
import TenFootProtocol
import TestSupport
import ZeroMQ

/// What waiting for an app costs: the catalog app in a real `tenfoot-screen` (headless), a
/// remote's presses over ipc, each press (key-down then key-up) timed to its last ack. A press
/// that opens or closes the detail view is answered after the app's reaction (the broker holds
/// it, docs/apps.md), so its time includes the broker → screen → app → broker round trip; a
/// press that only moves focus is the baseline. The press after an activation was held while
/// the app reacted: it is answered right after the reaction, so its own time is the baseline.
enum ReactionBench {
  static func run(samples: Int) throws -> ReactionResult {
    let directory = try TemporaryDirectory()
    let broker = try BenchProcesses.broker(.ipc, in: directory)
    defer { broker.stop() }
    let screen = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--renderer", "headless", "--frames", "/dev/null", "--control", broker.control,
        "--state", broker.state, "--insecure", "--log-level", "warning",
      ])
    defer { screen.kill() }
    let context = try Context()
    defer { context.shutdown() }
    let control = try ControlConnection(
      context: context, endpoint: broker.control, sender: "bench", curve: nil)
    try waitForScreen(control)
    var seq: UInt64 = 0
    func press(_ key: Tenfoot_V1_Key) throws -> (nanoseconds: UInt64, focused: String) {
      let start = MonotonicClock.nanoseconds()
      var focused = ""
      for phase in [Tenfoot_V1_KeyPhase.down, .up] {
        seq += 1
        var input = Tenfoot_V1_Input()
        input.screenID = "main"
        input.key.key = key
        input.key.phase = phase
        input.key.timestampNs = MonotonicClock.nanoseconds()
        guard case .ack(let ack) = try control.request(.input(input), timeout: .seconds(5))
        else { throw BenchError("the broker refused a press") }
        focused = ack.focused
      }
      return (MonotonicClock.nanoseconds() - start, focused)
    }
    var moves: [UInt64] = []
    var opens: [UInt64] = []
    var after: [UInt64] = []
    var closes: [UInt64] = []
    for _ in 0..<samples {
      moves.append(try press(.right).nanoseconds)
      let opened = try press(.select)
      guard opened.focused == "detail-play" else {
        throw BenchError("select did not answer with the opened view: \(opened.focused)")
      }
      opens.append(opened.nanoseconds)
      after.append(try press(.right).nanoseconds)
      let closed = try press(.menu)
      guard !closed.focused.hasPrefix("detail") else {
        throw BenchError("menu did not answer with the closed view: \(closed.focused)")
      }
      closes.append(closed.nanoseconds)
      _ = try press(.left)
    }
    return ReactionResult(
      samples: samples, move: Figures(moves), activation: Figures(opens),
      pressAfterActivation: Figures(after), back: Figures(closes))
  }

  /// Waits until the screen registered the catalog (its snapshot is there).
  private static func waitForScreen(_ control: ControlConnection) throws {
    let deadline = MonotonicClock.nanoseconds() + 20_000_000_000
    var request = Tenfoot_V1_SnapshotRequest()
    request.screenID = "main"
    while MonotonicClock.nanoseconds() < deadline {
      if case .snapshot = try control.request(.snapshotRequest(request), timeout: .seconds(2)) {
        return
      }
      usleep(50_000)
    }
    throw BenchError("tenfoot-screen did not register the catalog within 20 s")
  }
}

/// Press → last ack times, µs.
struct Figures: Codable {
  var medianMicroseconds: Double
  var p99Microseconds: Double
  var maxMicroseconds: Double

  init(_ nanoseconds: [UInt64]) {
    let sorted = nanoseconds.sorted()
    (medianMicroseconds, p99Microseconds, maxMicroseconds) = (
      percentile(sorted, 0.5), percentile(sorted, 0.99), percentile(sorted, 1)
    )
  }
}

/// The sample at `fraction` (nearest rank) of `sorted` nanoseconds, in µs to 0.1 (0: none).
func percentile(_ sorted: [UInt64], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return 0 }
  let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
  return (Double(sorted[index]) / 100).rounded() / 10
}

/// The reaction benchmark's figures.
struct ReactionResult: Codable {
  var samples: Int
  /// A press that moves focus (nothing for the app).
  var move: Figures
  /// Select on a poster: answered after the app opened the detail view.
  var activation: Figures
  /// The press right after it (inside the view).
  var pressAfterActivation: Figures
  /// Menu in the detail view: answered after the app closed it.
  var back: Figures
}
