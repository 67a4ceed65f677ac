import ArgumentParser
import Foundation
import TestSupport

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

  @Option(help: "Takeovers to measure.")
  var takeovers = 20

  func run() throws {
    let postgres = try TestPostgres()
    let directory = try TemporaryDirectory()
    var zone = try BenchZone(postgres: postgres, directory: directory)
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
        "takeover \(round): term \(term), standby active \(Int(active.last ?? 0)) ms, screen resynced \(Int(shown.last ?? 0)) ms after the kill"
      )
      try zone.restartKilled()
    }
    Table.line("")
    Table.row(["failover (\(takeovers) kill -9)", "median ms", "p90 ms", "worst ms"])
    for (name, values) in [("standby active", active), ("screen shows the state", shown)] {
      let sorted = values.sorted()
      let p90 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
      Table.row([
        name, String(format: "%.0f", sorted[sorted.count / 2]), String(format: "%.0f", p90),
        String(format: "%.0f", sorted.last ?? 0),
      ])
    }
  }

  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration / .microseconds(1)) / 1000
  }
}

/// Two brokers of zone "bench" on fixed loopback ports, one active.
struct BenchZone {
  let postgres: TestPostgres
  let directory: TemporaryDirectory
  var brokers: [ChildProcess]
  let endpoints: [(control: String, state: String)]
  /// The index of the active broker.
  var active = 0
  var term: Int64 = 1

  init(postgres: TestPostgres, directory: TemporaryDirectory) throws {
    self.postgres = postgres
    self.directory = directory
    endpoints = try (0..<2).map { _ in
      (
        "tcp://127.0.0.1:\(try TestPostgres.freePort(host: "127.0.0.1"))",
        "tcp://127.0.0.1:\(try TestPostgres.freePort(host: "127.0.0.1"))"
      )
    }
    brokers = []
    for index in 0..<2 { brokers.append(try start(index)) }
    try brokers[0].waitForLine(timeout: 20, "the first broker active") {
      $0.hasPrefix("tenfoot-broker ready")
    }
  }

  func start(_ index: Int) throws -> ChildProcess {
    let broker = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"),
      [
        "--store", postgres.url, "--zone", "bench", "--broker-name", "b\(index)", "--control",
        endpoints[index].control, "--state", endpoints[index].state, "--insecure",
        "--log-level", "warning",
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
