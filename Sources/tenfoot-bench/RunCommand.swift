import ArgumentParser
import Foundation

/// `tenfoot-bench run` (the default): every benchmark, tables on standard output.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run", abstract: "Run the benchmarks and print the tables.")

  /// The benchmarks that can be picked with --only.
  enum Part: String, ExpressibleByArgument, CaseIterable {
    case latency, throughput, scale, idle, startup, flood, durable, crash, abuse, reaction, page
    /// Only on request (it needs perf): syscalls, context switches and CPU per press.
    case accounting

    /// What runs without --only.
    static var everyDefault: [Part] { allCases.filter { $0 != .accounting } }
  }

  @Flag(help: "Tiny counts: checks that every benchmark runs (the test suite uses this).")
  var quick = false
  @Option(help: "Latency: measured inputs per path and transport (after warm-up).")
  var inputs = 20_000
  @Option(help: "Latency: warm-up inputs, not measured.")
  var warmUp = 2_000
  @Option(
    help: """
      Latency and durable: an idle pause before each sample, in microseconds (0: back to back). \
      A person presses a few times a second at most, so each press meets a process that slept \
      and caches other work used: this measures that case.
      """)
  var pauseMicroseconds = 0
  @Option(help: "Throughput: inputs per run.")
  var throughputInputs = 100_000
  @Option(help: "Scale: screens (each with a 10×20 = 200-item layout).")
  var scaleScreens = 1_000
  @Option(help: "Scale: remotes, each sending --scale-rate inputs per second.")
  var scaleRemotes = 1_000
  @Option(help: "Scale: inputs per second per remote.")
  var scaleRate = 5.0
  @Option(help: "Scale: seconds of load.")
  var scaleSeconds = 20.0
  @Option(help: "Idle: screens registered (each with a 200-item layout).")
  var idleScreens = 10_000
  @Option(help: "Start-up: launches per program.")
  var startupRuns = 7
  @Option(help: "Flood: victim inputs measured quiet and again while another remote floods.")
  var floodInputs = 2_000
  @Option(help: "Durable: single-remote ack samples per path and screen count.")
  var durableSamples = 5_000
  @Option(
    help: """
      Durable: the press → ack samples' order: pairs (each path alternating with its own \
      floor, as the latency part does) or all (the six paths interleaved sample by sample, so \
      each sample meets a process five others ran between: a press after idle).
      """)
  var durableOrder: DurableBench.Order = .pairs
  @Flag(help: "Durable: only the press → ack figures (no durable scale or throughput runs).")
  var durableAckOnly = false
  @Option(
    help: """
      Durable: where the durable brokers' data directories go (default: under /tmp, this \
      machine's disk). A tmpfs here shows what the fsync costs.
      """)
  var durableDirectory: String?
  @Option(
    help: "Crash: trials (each kills the broker under load 4 times and checks every restart).")
  var crashTrials = 50
  @Option(help: "Abuse: another peer's hellos and presses measured quiet and under abuse.")
  var abuseSamples = 1_000
  @Option(help: "Abuse: huge registrations (100,000 items each) the abusing peer pipelines.")
  var abuseRegistrations = 200
  @Option(
    help: """
      Abuse: one of its broker's options as NAME=VALUE (repeat), e.g. io-threads=2 or \
      peer-kibibytes-rate=128, to compare settings with one build; an option the broker does \
      not list is left out (the table's title says which were given).
      """)
  var abuseBrokerOption: [String] = []
  @Option(help: "Reaction: presses of each kind (move, activation, the next press, back).")
  var reactionSamples = 500
  @Option(
    help: """
      Page: presses per path (a page with tenfoot.js pressed from the bench and through \
      tenfoot-remote script -, the built-in page, the floor).
      """)
  var pageSamples = 1_000
  @Option(help: "Accounting: presses counted per path and transport.")
  var accountingPresses = 5_000
  @Option(help: "Run only this part (repeat for more: --only latency --only flood).")
  var only: [Part] = []
  @Option(
    help: """
      The broker's --peer-rate (messages per second per peer). The broker's default, 2,000, \
      would throttle the benchmark's single remote; set 2000 to measure with it.
      """)
  var peerRate = 1_000_000
  @Option(help: "Write the results here as JSON.")
  var output: String?
  @Option(help: "Write the latency plot here as SVG.")
  var plot: String?

  mutating func run() throws {
    if quick { useQuickCounts() }
    let parts = Set(only.isEmpty ? Part.everyDefault : only)
    BenchProcesses.peerRate = peerRate
    BenchProcesses.durableBase = durableDirectory
    BenchPeers.raiseFileLimit()
    var results = BenchResults(brokerPeerRate: peerRate, mode: mode)
    let machine = results.machine
    Table.line(
      "tenfoot-bench (\(results.mode), \(machine.build) build) on \(machine.cpu), "
        + "\(machine.cores) cores, \(machine.kernel), libzmq \(machine.libzmq)")
    var series: [LatencyPlot.Series] = []
    if parts.contains(.latency) { series = try runLatency(into: &results) }
    if parts.contains(.throughput) { try runThroughput(into: &results) }
    if parts.contains(.scale) { try runScale(into: &results) }
    if parts.contains(.idle) { try runIdle(into: &results) }
    if parts.contains(.startup) { try runStartup(into: &results) }
    if parts.contains(.flood) { try runFlood(into: &results) }
    if parts.contains(.durable) { results.durable = try runDurable() }
    if parts.contains(.crash) { results.crash = try runCrash() }
    if parts.contains(.abuse) { results.abuse = try runAbuse() }
    if parts.contains(.reaction) { results.reaction = try runReaction() }
    if parts.contains(.page) { results.page = try runPage() }
    if parts.contains(.accounting) { results.accounting = try runAccounting() }
    try finish(&results, series: series)
  }

  /// The tiny counts of `--quick`.
  private mutating func useQuickCounts() {
    (inputs, warmUp, throughputInputs) = (300, 50, 2_000)
    (scaleScreens, scaleRemotes, scaleSeconds, idleScreens, startupRuns) = (20, 20, 1, 100, 2)
    floodInputs = 100
    (durableSamples, crashTrials) = (100, 1)
    (abuseSamples, abuseRegistrations) = (50, 10)
    reactionSamples = 20
    pageSamples = 30
  }

  /// "quick", "full" (every count at its default) or "custom".
  private var mode: String {
    let counts = [
      inputs, warmUp, throughputInputs, scaleScreens, scaleRemotes, idleScreens, startupRuns,
      floodInputs, durableSamples, crashTrials,
    ]
    return quick
      ? "quick"
      : counts == [20_000, 2_000, 100_000, 1_000, 1_000, 10_000, 7, 2_000, 5_000, 50]
        && scaleSeconds == 20 && scaleRate == 5 ? "full" : "custom"
  }

  /// The load average, then the JSON results and the latency plot if asked for.
  private func finish(_ results: inout BenchResults, series: [LatencyPlot.Series]) throws {
    results.loadAverageAtEnd = BenchResults.loadAverage()
    Table.line(
      "\nload average at start \(results.loadAverageAtStart), at end \(results.loadAverageAtEnd)"
        + " (2 cores: above 1 means other work shared them)")
    if let output {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(results).write(to: URL(fileURLWithPath: output))
      Table.line("\nresults: \(output)")
    }
    if let plot, !series.isEmpty {
      let title = "TenFoot input → screen state applied vs bare ZeroMQ (\(inputs) inputs)"
      try LatencyPlot.svg(title: title, series: series)
        .write(toFile: plot, atomically: true, encoding: .utf8)
      Table.line("plot: \(plot)")
    }
  }
}

/// Markdown tables on standard output.
enum Table {
  /// Writes a line at once (unbuffered, so progress shows through a pipe).
  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  static func header(_ title: String, _ columns: [String]) {
    line("\n### \(title)\n")
    row(columns)
    row(columns.map { _ in "---" })
  }

  static func row(_ cells: [String]) {
    line("| " + cells.joined(separator: " | ") + " |")
  }
}

extension DurableBench.Order: ExpressibleByArgument {}
