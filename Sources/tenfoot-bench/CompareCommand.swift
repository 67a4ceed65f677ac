import ArgumentParser
import Foundation
import TestSupport

/// `tenfoot-bench compare A B`: two builds' binaries measured alternately on this machine, so a
/// change on the message path is judged against `main` in one command, not against a figure
/// taken on another day.
///
/// Each round runs this executable's own `run` part twice as a child process, once with
/// `TENFOOT_BIN_DIR=A` and once with `B` (in the order A B, then B A, so neither build always
/// runs on the warmer machine). The harness (the benchmark's remotes, screens, floor relay and
/// timing) is this binary for both: only the TenFoot programs differ, so the figures compare
/// the builds' brokers and nothing else. A part prints TenFoot ÷ its floor measured interleaved
/// in the same run; compare prints each round's ratios, then per figure the median over the
/// rounds for A and for B and their difference.
struct CompareCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract:
      "Measure two builds' binaries alternately and print both ratios and their difference.",
    discussion: """
      A and B are directories holding tenfoot-broker (a release build's bin directory: \
      `swift build -c release --show-bin-path`). scripts/bench-compare REV builds a git \
      revision and compares it with this checkout.
      """)

  @Argument(help: "The baseline build's bin directory (e.g. main's).")
  var baseline: String
  @Argument(help: "The changed build's bin directory.")
  var candidate: String
  @Option(help: "Rounds; each runs A and B once.")
  var rounds = 3
  @Option(help: "The part to run: latency (plain ipc and tcp) or durable (CURVE, data directory).")
  var part: Part = .latency
  @Option(help: "Latency: measured inputs per path and transport, per run.")
  var inputs = 10_000
  @Option(help: "Durable: press → ack samples per path, per run.")
  var durableSamples = 1_000
  @Option(help: "Durable: screens registered for the second phase (the 1,000 vs 1 screen guard).")
  var durableScreens = 1_000
  @Option(help: "Durable: the samples' order, pairs or all (`run --durable-order`).")
  var durableOrder: DurableBench.Order = .pairs
  @Option(help: "Both parts: idle microseconds before each sample (`run --pause-microseconds`).")
  var pauseMicroseconds = 0
  @Option(help: "Keep each run's JSON and output in this directory.")
  var keep: String?

  enum Part: String, ExpressibleByArgument { case latency, durable }

  func validate() throws {
    for directory in [baseline, candidate]
    where !FileManager.default.isExecutableFile(atPath: directory + "/tenfoot-broker") {
      throw ValidationError("\(directory) holds no tenfoot-broker: give a build's bin directory")
    }
    guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
  }

  func run() throws {
    let scratch = try TemporaryDirectory()
    let directory = keep ?? scratch.path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    Table.line("tenfoot-bench compare (\(part.rawValue), \(rounds) rounds)")
    Table.line("A: \(baseline)\nB: \(candidate)")
    var figures: [String: (a: [Double], b: [Double])] = [:]
    var order: [String] = []
    for round in 1...rounds {
      let builds =
        round.isMultiple(of: 2)
        ? [("B", candidate), ("A", baseline)]
        : [("A", baseline), ("B", candidate)]
      for (label, bin) in builds {
        let output = "\(directory)/round\(round)-\(label).json"
        try runPart(bin: bin, output: output, log: "\(directory)/round\(round)-\(label).txt")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        let results = try JSONDecoder().decode(BenchResults.self, from: data)
        let named = Self.figures(results, part: part)
        Table.line(
          "round \(round) \(label): "
            + named.map { "\($0.name) \(Self.format($0.value))" }.joined(separator: ", "))
        for (name, value) in named {
          if figures[name] == nil { order.append(name) }
          if label == "A" {
            figures[name, default: ([], [])].a.append(value)
          } else {
            figures[name, default: ([], [])].b.append(value)
          }
        }
      }
    }
    Table.header(
      "A against B, median over \(rounds) rounds (lower is better)",
      ["figure", "A", "B", "B − A", "A's rounds", "B's rounds"])
    for name in order {
      guard let values = figures[name] else { continue }
      let a = Self.median(values.a)
      let b = Self.median(values.b)
      Table.row([
        name, Self.format(a), Self.format(b), Self.format(b - a, signed: true),
        values.a.map { Self.format($0) }.joined(separator: ", "),
        values.b.map { Self.format($0) }.joined(separator: ", "),
      ])
    }
    Table.line(
      "\nRatios are TenFoot ÷ its floor, both measured interleaved in the same run; "
        + "\"over floor\" is TenFoot − floor in µs. Judge a change by B − A against the "
        + "spread of each build's rounds.")
  }

  /// Runs one `run --only PART` of this executable against `bin`'s programs.
  private func runPart(bin: String, output: String, log: String) throws {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    var arguments = [
      "run", "--only", part.rawValue, "--output", output,
      "--pause-microseconds", "\(pauseMicroseconds)",
    ]
    switch part {
    case .latency: arguments += ["--inputs", "\(inputs)"]
    case .durable:
      arguments += [
        "--durable-samples", "\(durableSamples)", "--scale-screens", "\(durableScreens)",
        "--durable-ack-only", "--durable-order", durableOrder.rawValue,
      ]
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["TENFOOT_BIN_DIR"] = bin
    process.environment = environment
    FileManager.default.createFile(atPath: log, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    defer { try? handle.close() }
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let tail =
        (try? String(contentsOfFile: log, encoding: .utf8))?
        .split(separator: "\n").suffix(5).joined(separator: "\n") ?? ""
      throw BenchError(
        "the run against \(bin) failed (exit \(process.terminationStatus)):\n\(tail)")
    }
  }

  /// The figures a part's results give, in a stable order.
  static func figures(_ results: BenchResults, part: Part) -> [(name: String, value: Double)] {
    switch part {
    case .latency:
      var named: [(String, Double)] = []
      for ratio in results.ratios {
        named.append(("\(ratio.transport.rawValue) median ×", ratio.median))
        named.append(("\(ratio.transport.rawValue) p99 ×", ratio.p99))
      }
      for transport in BenchProcesses.Transport.allCases {
        let measured = results.latency.filter { $0.transport == transport }
        guard let tenfoot = measured.first(where: { $0.path == "tenfoot" }),
          let floor = measured.first(where: { $0.path == "floor" })
        else { continue }
        named.append(
          (
            "\(transport.rawValue) median over floor µs",
            tenfoot.medianMicroseconds - floor.medianMicroseconds
          ))
      }
      return named
    case .durable:
      guard let phases = results.durable?.ackLatency else { return [] }
      var named: [(String, Double)] = []
      for phase in phases {
        let screens = phase.screens == 1 ? "1 screen" : "\(phase.screens) screens"
        func ratio(_ a: LatencySummary, _ b: LatencySummary) -> Double {
          b.medianMicroseconds > 0 ? a.medianMicroseconds / b.medianMicroseconds : 0
        }
        named.append(
          ("durable ÷ durable floor, \(screens)", ratio(phase.durable, phase.durableFloor)))
        named.append(
          (
            "CURVE in memory ÷ CURVE floor, \(screens)",
            ratio(phase.curveInMemory, phase.curveFloor)
          ))
        named.append(("plain ÷ plain floor, \(screens)", ratio(phase.inMemory, phase.plainFloor)))
      }
      if phases.count == 2 {
        named.append(
          (
            "durable, \(phases[1].screens) ÷ 1 screen",
            phases[1].durable.medianMicroseconds / max(1, phases[0].durable.medianMicroseconds)
          ))
      }
      return named
    }
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2)
      ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }

  static func format(_ value: Double, signed: Bool = false) -> String {
    let text = String(format: "%.2f", value)
    return signed && value >= 0 ? "+" + text : text
  }
}
