import Foundation
import TestSupport
import Testing

/// Two brokers of one zone on a throw-away PostgreSQL, over CURVE TCP on loopback, sharing the
/// zone's key pair (broker-key.json copied from a's data directory to b's, as an operator
/// would) and the zone's allow-list in the store (one screen and one remote, added with
/// `tenfoot-broker remotes add --store …`); a headless screen and remotes given both brokers'
/// endpoints.
final class ZoneStack {
  let postgres: TestPostgres
  let directory: TemporaryDirectory
  let environment: [String: String]
  /// Each broker's endpoints (control, state, pairing), fixed ports.
  let endpoints: [String: (control: String, state: String, pairing: String)]
  private(set) var brokers: [String: ChildProcess] = [:]
  private(set) var brokerKey: String

  init() throws {
    brokerKey = ""  // Set below, once the key pair exists.
    postgres = try TestPostgres()
    directory = try TemporaryDirectory()
    environment = [
      "TENFOOT_RUNTIME_DIR": directory.path + "/run",
      "TENFOOT_STATE_DIR": directory.path + "/state",
    ]
    var endpoints: [String: (String, String, String)] = [:]
    // Six distinct ports, picked together (picked one by one, two endpoints got the same one).
    let ports = try TestPostgres.freePorts(6, host: "127.0.0.1")
    for (index, name) in ["a", "b"].enumerated() {
      let own = ports[(index * 3)..<(index * 3 + 3)].map { "tcp://127.0.0.1:\($0)" }
      endpoints[name] = (own[0], own[1], own[2])
    }
    self.endpoints = endpoints
    // The zone's key pair: created once in a's data directory, copied to b's.
    brokerKey = try #require(Self.run("tenfoot-broker", ["key", "--data-dir", data("a")]).first)
    try FileManager.default.createDirectory(
      atPath: data("b"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.copyItem(
      atPath: data("a") + "/broker-key.json", toPath: data("b") + "/broker-key.json")
    let screenKey = try #require(
      Self.run("tenfoot-screen", ["--print-key", "--state-dir", directory.path + "/screen"]).first)
    let remoteKey = try remoteKey()
    // The zone's allow-list is in the store, shared by both brokers.
    _ = try Self.run(
      "tenfoot-broker", ["remotes", "add", "--name", "tv", "--key", screenKey] + zoneStore)
    _ = try Self.run(
      "tenfoot-broker",
      ["remotes", "add", "--name", "remote", "--role", "remote", "--key", remoteKey] + zoneStore)
  }

  /// The flags naming the zone's store, for `tenfoot-broker remotes|status`.
  var zoneStore: [String] { ["--store", postgres.url, "--zone", "hall"] }

  func data(_ broker: String) -> String { directory.path + "/broker-" + broker }

  /// The remote's public key: its first run creates its key pair (no broker needs to answer).
  private func remoteKey() throws -> String {
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      [
        "press", "up", "--broker-key", brokerKey, "--control", "tcp://127.0.0.1:9", "--state",
        "tcp://127.0.0.1:9", "--state-dir", directory.path + "/remote", "--timeout", "0.2",
      ])
    _ = try remote.waitForExit(timeout: 10)
    let data = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/remote/key.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(json["publicKey"] as? String)
  }

  /// Starts broker `name` of zone "hall"; returns once it printed its first line (active or
  /// standby).
  @discardableResult
  func startBroker(_ name: String, extra: [String] = []) throws -> ChildProcess {
    let own = try #require(endpoints[name])
    let broker = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"),
      [
        "--store", postgres.url, "--zone", "hall", "--broker-name", name, "--control", own.control,
        "--state", own.state, "--pairing", own.pairing, "--data-dir", data(name),
      ] + extra, environment: environment)
    brokers[name] = broker
    try broker.waitForLine("a standby line") { $0.hasPrefix("tenfoot-broker standby") }
    return broker
  }

  /// Both brokers' endpoints, as the clients of a zone are given them.
  var clientArguments: [String] {
    let own = ["a", "b"].compactMap { endpoints[$0] }
    return [
      "--control", own.map(\.control).joined(separator: ","),
      "--state", own.map(\.state).joined(separator: ","),
      "--pairing", own.map(\.pairing).joined(separator: ","), "--broker-key", brokerKey,
    ]
  }

  /// A headless screen "main" on a grid (3×3 unless told).
  func screen(rows: Int = 3, columns: Int = 3) throws -> ChildProcess {
    let layout = try directory.write(
      "grid.json", TestLayouts.gridJSON(rows: rows, columns: columns))
    return try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--layout", layout, "--renderer", "headless", "--frames", "-", "--id", "main",
        "--state-dir", directory.path + "/screen",
      ] + clientArguments, environment: environment)
  }

  /// Runs `tenfoot-remote press KEY` for screen main (as remote `stateDir`, by default the
  /// allowed one); returns its exit status and errors.
  func press(
    _ key: String, arguments: [String]? = nil, timeout: Double = 3, stateDir: String = "remote"
  ) throws -> (status: Int32, errors: [String]) {
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      [
        "press", key, "--screen", "main", "--timeout", "\(timeout)", "--state-dir",
        directory.path + "/" + stateDir,
      ]
        + (arguments ?? clientArguments), environment: environment)
    let status = try remote.waitForExit(timeout: timeout + 10)
    return (status, remote.errors)
  }

  /// Pairs a new remote (state directory `stateDir`) with the PIN the screen shows, after
  /// the screen's line `start`; returns the pair command's output once it ended.
  func pair(_ stateDir: String, screen: ChildProcess, from start: Int) throws -> [String] {
    let input = Pipe()
    let process = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      [
        "pair", "--name", stateDir, "--timeout", "5", "--state-dir",
        directory.path + "/" + stateDir,
      ]
        + clientArguments, environment: environment, stdin: input.fileHandleForReading)
    let prompt = try screen.waitForLine(from: start, timeout: 15, "the PIN overlay") {
      $0.hasPrefix(#"{"pairing":{"#)
    }
    let pin = try #require(SecureStack.pin(in: prompt.line))
    input.fileHandleForWriting.write(Data((pin + "\n").utf8))
    try input.fileHandleForWriting.close()
    let status = try process.waitForExit(timeout: 30)
    guard status == 0 else {
      throw ChildProcessError(description: "pairing failed: \(process.errors)")
    }
    return process.output
  }

  /// Runs a TenFoot command to completion and returns its standard output; throws on failure.
  static func run(_ binary: String, _ arguments: [String]) throws -> [String] {
    let process = try ChildProcess(TestEnvironment.binary(binary), arguments)
    let status = try process.waitForExit(timeout: 20)
    guard status == 0 else {
      throw ChildProcessError(
        description: "\(binary) \(arguments) exited \(status): \(process.errors)")
    }
    return process.output
  }

  /// The frame fields of a headless frame line (nil for other lines).
  static func frame(_ line: String) -> (epoch: UInt64, focused: String?, states: [String: String])?
  {
    guard line.hasPrefix("{"),
      let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let epoch = (json["epoch"] as? NSNumber)?.uint64Value
    else { return nil }
    return (epoch, json["focused"] as? String, json["states"] as? [String: String] ?? [:])
  }
}
