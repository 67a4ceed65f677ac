import ArgumentParser
import Foundation
import TestSupport
import ZeroMQ

/// `tenfoot-bench failover`: a two-broker zone on a throw-away PostgreSQL 15, one headless
/// screen given both brokers; kills the active broker (`kill -9`) again and again and prints
/// how long the standby took to become active and the screen to show the zone's state again.
struct FailoverCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "failover",
    abstract: "Takeover times of a two-broker zone on PostgreSQL (kill -9 of the active broker).",
    discussion: """
      Needs PostgreSQL 15's server binaries (scripts/bootstrap installs them). Brokers, screen \
      and PostgreSQL run on 127.0.0.1 over plain TCP (--insecure): the figures are the \
      takeover itself, without the CURVE handshakes of a real network.
      """)

  @Option(help: "Takeovers to measure (per zone size).")
  var takeovers = 20

  @Option(
    parsing: .upToNextOption,
    help: ArgumentHelp(
      "Zone sizes: screens registered in the zone (10×20 grids) before its takeovers.",
      discussion:
        "Each size gets its own zone on the one PostgreSQL, e.g. --screens 100 1000 5000; the headless screen that measures the resync comes on top."
    ))
  var screens: [Int] = [0]

  func run() throws {
    let postgres = try TestPostgres()
    var rows: [[String]] = []
    for size in screens {
      let directory = try TemporaryDirectory()
      var zone = try BenchZone(postgres: postgres, directory: directory, zone: "bench\(size)")
      if size > 0 {
        let context = try Context()
        defer { context.shutdown() }
        let started = ContinuousClock.now
        try BenchPeers.register(
          (0..<size).map { "s\($0)" }, layout: BenchPeers.layout(rows: 10, columns: 20),
          context: context, control: zone.endpoints[zone.active].control)
        Table.line(
          "zone of \(size) screens registered in \(Int(Self.milliseconds(ContinuousClock.now - started))) ms"
        )
      }
      let (active, shown) = try measure(&zone, directory: directory, size: size)
      for (name, values) in [("standby active", active), ("screen shows the state", shown)] {
        let sorted = values.sorted()
        let p90 = sorted[
          min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
        rows.append([
          "\(size)", name, String(format: "%.0f", sorted[sorted.count / 2]),
          String(format: "%.0f", p90), String(format: "%.0f", sorted.last ?? 0),
        ])
      }
    }
    Table.line("")
    Table.row(["screens", "failover (\(takeovers) kill -9)", "median ms", "p90 ms", "worst ms"])
    for row in rows { Table.row(row) }
  }

  /// Kills the active broker `takeovers` times; returns the times (ms after each kill) until
  /// the standby was active and until the headless screen showed the zone's state again.
  private func measure(_ zone: inout BenchZone, directory: TemporaryDirectory, size: Int) throws
    -> (active: [Double], shown: [Double])
  {
    let layout = try directory.write("grid.json", TestLayouts.gridJSON(rows: 3, columns: 3))
    let screen = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      ["--layout", layout, "--renderer", "headless", "--frames", "-", "--id", "main"]
        + zone.clientArguments)
    var seen = try screen.waitForLine(timeout: 20, "the first frame") { $0.contains("\"epoch\"") }
    var active: [Double] = []
    var shown: [Double] = []
    for round in 1...takeovers {
      let killed = ContinuousClock.now
      let term = try zone.killActive()
      active.append(Self.milliseconds(ContinuousClock.now - killed))
      let epoch = try require(BenchZone.epoch(seen.line), "the frame's epoch")
      seen = try screen.waitForLine(from: seen.index + 1, timeout: 20, "the frame of term \(term)")
      {
        BenchZone.epoch($0).map { $0 != epoch } ?? false
      }
      shown.append(Self.milliseconds(ContinuousClock.now - killed))
      Table.line(
        "\(size) screens, takeover \(round): term \(term), standby active \(Int(active.last ?? 0)) ms, screen resynced \(Int(shown.last ?? 0)) ms after the kill"
      )
      try zone.restartKilled()
    }
    return (active, shown)
  }

  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration / .microseconds(1)) / 1000
  }
}

/// Two brokers of one zone on fixed loopback ports, one active. Their screen grace is a day:
/// the registered bench screens send no heartbeats.
struct BenchZone {
  let postgres: TestPostgres
  let directory: TemporaryDirectory
  let zone: String
  var brokers: [ChildProcess]
  let endpoints: [(control: String, state: String)]
  /// The index of the active broker.
  var active = 0
  var term: Int64 = 1

  init(postgres: TestPostgres, directory: TemporaryDirectory, zone: String = "bench") throws {
    self.postgres = postgres
    self.directory = directory
    self.zone = zone
    let ports = try TestPostgres.freePorts(4, host: "127.0.0.1").map { "tcp://127.0.0.1:\($0)" }
    endpoints = [(ports[0], ports[1]), (ports[2], ports[3])]
    brokers = []
    // The first broker is started and active before the second starts: started together,
    // either may take the lock first (on a loaded machine the second sometimes did, and the
    // first waited as standby).
    brokers.append(try start(0))
    try brokers[0].waitForLine(timeout: 60, "the first broker active") {
      $0.hasPrefix("tenfoot-broker ready")
    }
    brokers.append(try start(1))
  }

  func start(_ index: Int) throws -> ChildProcess {
    let broker = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"),
      [
        "--store", postgres.url, "--zone", zone, "--broker-name", "b\(index)", "--control",
        endpoints[index].control, "--state", endpoints[index].state, "--insecure",
        "--log-level", "warning", "--screen-grace", "86400",
      ])
    try broker.waitForLine(timeout: 20, "a standby line") { $0.hasPrefix("tenfoot-broker standby") }
    return broker
  }

  var clientArguments: [String] {
    [
      "--control", endpoints.map(\.control).joined(separator: ","), "--state",
      endpoints.map(\.state).joined(separator: ","), "--insecure",
    ]
  }

  /// Kills the active broker and waits for the other to print its ready line; returns the
  /// new term.
  mutating func killActive() throws -> Int64 {
    brokers[active].kill()
    active = 1 - active
    term += 1
    let expected = "term=\(term)"
    try brokers[active].waitForLine(timeout: 20, "the standby active with \(expected)") {
      $0.hasPrefix("tenfoot-broker ready") && $0.hasSuffix(expected)
    }
    return term
  }

  /// Starts the killed broker again; it stands by.
  mutating func restartKilled() throws {
    brokers[1 - active] = try start(1 - active)
  }

  /// The epoch of a headless frame line.
  static func epoch(_ line: String) -> UInt64? {
    guard let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    else { return nil }
    return (json["epoch"] as? NSNumber)?.uint64Value
  }
}

/// `#require` for the benchmark: a missing value is an error with a message.
func require<Value>(_ value: Value?, _ what: String = "a value") throws -> Value {
  guard let value else { throw ValidationError("missing \(what)") }
  return value
}
