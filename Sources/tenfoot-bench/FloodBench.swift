import Foundation
import Histogram
import TenFootProtocol
import TestSupport
import ZeroMQ

/// Flood: one remote sends as fast as its socket allows while another, well-behaved remote
/// presses keys on its own screen; the well-behaved remote's input → screen state applied
/// latency, first quiet, then during the flood. The broker runs with its default per-peer
/// limit (`--peer-rate 2000`), so this is what a venue sees when one remote goes wild.
///
/// The flooder is a separate process on the same machine. On two cores it competes with the
/// broker and the victim for CPU, which a flooding remote on another machine would not, so the
/// benchmark runs it twice: at normal priority and at `nice 19` (standing for another machine).
enum FloodBench {
  /// The broker's default flood limit (messages per second per peer).
  static let brokerDefaultPeerRate = 2000

  /// Measures `inputs` victim presses quiet and `inputs` during the flood, on `transport`.
  /// The flooder is a separate process (`tenfoot-bench flooder`), at `niceness`.
  static func run(
    _ transport: BenchProcesses.Transport, inputs: Int, warmUp: Int, niceness: Int,
    rate: Int = 0
  ) throws -> FloodResult {
    let directory = try TemporaryDirectory()
    let broker = try BenchProcesses.broker(
      transport, in: directory, peerRate: brokerDefaultPeerRate)
    defer { broker.stop() }
    let context = try Context()
    defer { context.shutdown() }
    var victim = try TenFootPath(
      context: context, control: broker.control, state: broker.state, screenID: "victim")
    try BenchPeers.register(
      ["flooded"], layout: BenchPeers.layout(rows: 1, columns: 2), context: context,
      control: broker.control)

    _ = try measure(&victim, count: warmUp)
    let quiet = try measure(&victim, count: inputs)
    let stop = Pipe()
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let flooder = try ChildProcess(
      "/usr/bin/nice",
      [
        "-n", "\(niceness)", executable, "flooder", "--control", broker.control, "--rate",
        "\(rate)",
      ],
      stdin: stop.fileHandleForReading)
    defer { flooder.kill() }
    // Measuring starts once the broker refuses the flood: it is over its budget. At nice 19 on
    // a busy machine (the smoke test runs beside the whole suite) the flooder may get little
    // CPU for seconds before it floods, hence the long bound.
    try flooder.waitForLine(timeout: 60, "the flooder's first rate_limited answer") {
      $0.hasPrefix("flooder throttled")
    }
    let flooded = try measure(&victim, count: inputs)
    try stop.fileHandleForWriting.close()
    let totals = try flooder.waitForLine(timeout: 10, "the flooder's totals") {
      $0.hasPrefix("flooder done")
    }.line
    let fields = BenchProcesses.fields(of: totals).compactMapValues(Double.init)
    let seconds = max(fields["seconds"] ?? 1, 0.001)
    return FloodResult(
      transport: transport, peerRate: brokerDefaultPeerRate, flooderNiceness: niceness,
      flooderTargetRate: rate,
      quiet: LatencyResult(path: "quiet", transport: transport, sizes: .unmeasured, quiet),
      flooded: LatencyResult(path: "flooded", transport: transport, sizes: .unmeasured, flooded),
      flooderMessagesPerSecond: ((fields["sent"] ?? 0) / seconds).rounded(),
      flooderAnsweredRateLimited: Int(fields["rate_limited"] ?? 0),
      flooderAcknowledged: Int(fields["acked"] ?? 0))
  }

  /// `count` victim presses, paced one per 4 ms (250 presses and 250 releases a second: a
  /// frantic person, far under the per-peer limit), recorded in a histogram (nanoseconds).
  private static func measure(_ path: inout TenFootPath, count: Int) throws -> Histogram<UInt64> {
    var histogram = Histogram<UInt64>(
      highestTrackableValue: 10_000_000_000, numberOfSignificantValueDigits: .three)
    var next = MonotonicClock.nanoseconds()
    for index in 0..<count {
      while MonotonicClock.nanoseconds() < next { usleep(200) }
      next = MonotonicClock.nanoseconds() + 4_000_000
      let start = MonotonicClock.nanoseconds()
      try path.send(index: index)
      guard try path.awaitApplied(timeout: .seconds(5)) else {
        throw BenchError("flood: victim input \(index) was not applied within 5 s")
      }
      _ = histogram.record(MonotonicClock.nanoseconds() - start)
      guard try path.awaitReply(timeout: .seconds(5)) else {
        throw BenchError("flood: victim input \(index) got no reply within 5 s")
      }
    }
    return histogram
  }

}

/// A well-behaved remote's latency with and without a flooding remote beside it.
struct FloodResult: Codable {
  var transport: BenchProcesses.Transport
  /// The broker's per-peer limit during the run (messages per second).
  var peerRate: Int
  /// The flooding process's `nice` value (19: it yields the CPU, as a remote on another machine
  /// costs the broker's machine no CPU; 0: it competes for the two cores).
  var flooderNiceness: Int
  /// The flooder's paced rate (messages per second), 0 when it sends as fast as it can.
  var flooderTargetRate: Int
  var quiet: LatencyResult
  var flooded: LatencyResult
  var flooderMessagesPerSecond: Double
  var flooderAnsweredRateLimited: Int
  var flooderAcknowledged: Int
}
