import Foundation
import Histogram
import ZeroMQ

/// Everything one `tenfoot-bench` run measured, written as JSON.
struct BenchResults: Codable {
  /// The machine the figures were taken on.
  var machine = Machine.current()
  /// When (UTC, ISO 8601).
  var date = ISO8601DateFormatter().string(from: Date())
  /// The broker's per-peer flood limit during the run (messages per second).
  var brokerPeerRate: Int
  /// `full`, `quick` (smoke test counts) or `custom`.
  var mode: String
  /// How percentiles were computed.
  var percentileMethod =
    "HdrHistogram (HdrHistogram/hdrhistogram-swift 0.2.0), 3 significant digits, ns values"
  /// /proc/loadavg (1, 5, 15 minutes) when the run started and ended: other work on the
  /// machine shows up in the tails.
  var loadAverageAtStart = BenchResults.loadAverage()
  var loadAverageAtEnd: [Double] = []
  var latency: [LatencyResult] = []
  var ratios: [LatencyRatio] = []
  var throughput: [ThroughputResult] = []
  var scale: ScaleResult?
  var idle: IdleResult?
  var idleVirtual: IdleResult?
  var startup: [StartupResult] = []
  var flood: [FloodResult] = []
  var durable: DurableResult?
  var crash: CrashResult?
  var abuse: AbuseResult?
  var reaction: ReactionResult?
  var page: PageResult?
  var accounting: [AccountingBench.Result] = []

  /// The 1, 5 and 15 minute load averages.
  static func loadAverage() -> [Double] {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).compactMap { Double($0) }
  }
}

/// Where the benchmark ran.
struct Machine: Codable {
  var cpu: String
  var cores: Int
  var memoryGiB: Double
  var kernel: String
  var libzmq: String
  var build: String

  static func current() -> Machine {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .map {
        String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(
          in: .whitespaces)
      } ?? "unknown"
    var name = utsname()
    uname(&name)
    let release = withUnsafeBytes(of: &name.release) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    let version = Context.version
    #if DEBUG
      let build = "debug"
    #else
      let build = "release"
    #endif
    return Machine(
      cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount,
      memoryGiB: (Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824 * 10).rounded()
        / 10,
      kernel: "Linux \(release)", libzmq: "\(version.major).\(version.minor).\(version.patch)",
      build: build)
  }
}

/// Bytes on the wire of the messages one input causes (the floor sends the same sizes).
struct MessageSizes: Codable {
  var input: Int
  var topic: Int
  var delta: Int
  var ack: Int

  /// For results whose message sizes were not recorded (zeros).
  static let unmeasured = MessageSizes(input: 0, topic: 0, delta: 0, ack: 0)
}

/// Latency percentiles of one path over one transport, in microseconds.
struct LatencyResult: Codable {
  var path: String
  var transport: BenchProcesses.Transport
  var samples: UInt64
  var medianMicroseconds: Double
  var p90Microseconds: Double
  var p99Microseconds: Double
  var p999Microseconds: Double
  var maxMicroseconds: Double
  var sizes: MessageSizes

  init(
    path: String, transport: BenchProcesses.Transport, sizes: MessageSizes,
    _ histogram: Histogram<UInt64>
  ) {
    self.path = path
    self.transport = transport
    self.sizes = sizes
    samples = histogram.totalCount
    medianMicroseconds = Self.micro(histogram.valueAtPercentile(50))
    p90Microseconds = Self.micro(histogram.valueAtPercentile(90))
    p99Microseconds = Self.micro(histogram.valueAtPercentile(99))
    p999Microseconds = Self.micro(histogram.valueAtPercentile(99.9))
    maxMicroseconds = Self.micro(histogram.max)
  }

  static func micro(_ nanoseconds: UInt64) -> Double {
    (Double(nanoseconds) / 100).rounded() / 10
  }
}

/// TenFoot's latency divided by the floor's, per percentile.
struct LatencyRatio: Codable {
  var transport: BenchProcesses.Transport
  var median: Double
  var p99: Double
  var p999: Double

  init(tenfoot: LatencyResult, floor: LatencyResult) {
    transport = tenfoot.transport
    func ratio(_ a: Double, _ b: Double) -> Double { b > 0 ? (a / b * 100).rounded() / 100 : 0 }
    median = ratio(tenfoot.medianMicroseconds, floor.medianMicroseconds)
    p99 = ratio(tenfoot.p99Microseconds, floor.p99Microseconds)
    p999 = ratio(tenfoot.p999Microseconds, floor.p999Microseconds)
  }
}

/// Inputs per second one broker sustained, and its CPU cost.
struct ThroughputResult: Codable {
  var transport: BenchProcesses.Transport
  /// CURVE over TCP with a data directory (group-committed durable sessions).
  var durable = false
  var remotes: Int
  var inputs: Int
  var inputsPerSecond: Double
  var brokerCPUMillisecondsPer1000Inputs: Double
  var deltasReceived: Int
}

/// The venue: many screens with big layouts, many remotes at a steady rate.
struct ScaleResult: Codable {
  var transport: BenchProcesses.Transport
  /// CURVE over TCP with a data directory (group-committed durable sessions).
  var durable = false
  var screens: Int
  var itemsPerScreen: Int
  var remotes: Int
  var inputsPerSecondPerRemote: Double
  var seconds: Double
  /// Key events sent: presses and releases alternate, so about half are presses.
  var inputsSent: Int
  var pressesSent: Int
  /// Deltas caused by presses, applied by the screen side (latency is measured on these).
  var pressDeltasApplied: Int
  var brokerRSSMiBAfterRegistration: Double
  var brokerRSSMiBAtEnd: Double
  var brokerCPUPercent: Double
  var medianMicroseconds: Double
  var p99Microseconds: Double
  var p999Microseconds: Double
  var registrationSeconds: Double
}

/// Many registered, idle screens: what each costs in broker memory.
struct IdleResult: Codable {
  var screens: Int
  var itemsPerScreen: Int
  var brokerRSSMiBBefore: Double
  var brokerRSSMiBAfter: Double
  var kibPerScreen: Double
  var registrationSeconds: Double
}

/// Launch-to-ready time of one program.
struct StartupResult: Codable {
  var process: String
  var ready: String
  var runs: Int
  var medianMilliseconds: Double
  var maxMilliseconds: Double
}
