import Foundation
import TestSupport
import Testing

/// A broker on CURVE TCP (127.0.0.1, ports it picks) with a data directory, a screen whose key
/// the owner copied to the allow-list, and helpers for remotes with their own state.
final class SecureStack {
  let directory: TemporaryDirectory
  let dataDirectory: String
  let environment: [String: String]
  private(set) var broker: ChildProcess
  private(set) var control: String
  private(set) var state: String
  private(set) var pairing: String

  init() throws {
    directory = try TemporaryDirectory()
    dataDirectory = directory.path + "/broker"
    environment = [
      "TENFOOT_RUNTIME_DIR": directory.path + "/run",
      "TENFOOT_STATE_DIR": directory.path + "/state",
    ]
    let screenKey = try #require(
      Self.run("tenfoot-screen", ["--print-key", "--state-dir", directory.path + "/screen"]).first)
    _ = try Self.run(
      "tenfoot-broker",
      ["remotes", "add", "--data-dir", dataDirectory, "--name", "tv", "--key", screenKey])
    (broker, control, state, pairing) = try Self.startBroker(
      [
        "--control", "tcp://127.0.0.1:*", "--state", "tcp://127.0.0.1:*", "--data-dir",
        dataDirectory,
      ], environment: environment)
  }

  /// Kills the broker with SIGKILL and starts it again on the same ports and data directory.
  func restartBroker() throws {
    stopBroker()
    try startBrokerAgain()
  }

  /// Kills the broker with SIGKILL (`startBrokerAgain` brings it back).
  func stopBroker() {
    broker.kill()
  }

  /// Starts the broker again on the same ports and data directory.
  func startBrokerAgain() throws {
    (broker, control, state, pairing) = try Self.startBroker(
      [
        "--control", control, "--state", state, "--pairing", pairing, "--data-dir",
        dataDirectory,
      ], environment: environment)
  }

  private static func startBroker(_ arguments: [String], environment: [String: String]) throws
    -> (ChildProcess, String, String, String)
  {
    let broker = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"), arguments, environment: environment)
    let ready = try broker.waitForLine("broker ready line") { $0.hasPrefix("tenfoot-broker ready") }
    let fields = Dictionary(
      uniqueKeysWithValues: ready.line.split(separator: " ").compactMap { word in
        let parts = word.split(separator: "=", maxSplits: 1)
        return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
      })
    return (
      broker, try #require(fields["control"]), try #require(fields["state"]),
      try #require(fields["pairing"])
    )
  }

  /// The broker's public key, as `tenfoot-broker key` prints it.
  func brokerKey() throws -> String {
    try #require(Self.run("tenfoot-broker", ["key", "--data-dir", dataDirectory]).first)
  }

  var endpointArguments: [String] {
    ["--control", control, "--state", state, "--pairing", pairing]
  }

  /// A headless screen on a `rows`×`columns` grid (r2c2 a text field if `textField`), trusting the broker
  /// key given explicitly; `name` picks its state directory (the allow-listed key is
  /// "screen"'s) and its session id.
  func screen(
    textField: Bool = false, name: String = "screen", rows: Int = 3, columns: Int = 3
  ) throws -> ChildProcess {
    var json = TestLayouts.gridJSON(rows: rows, columns: columns)
    if textField {
      json = json.replacingOccurrences(
        of: #"{"id": "r2c2", "#, with: #"{"id": "r2c2", "kind": "textField", "#)
    }
    let layout = try directory.write("grid.json", json)
    return try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--layout", layout, "--renderer", "headless", "--state-dir", directory.path + "/" + name,
        "--broker-key", try brokerKey(), "--id", name == "screen" ? "main" : name,
      ] + endpointArguments, environment: environment)
  }

  /// Starts a remote with its own state directory `name`.
  func remote(_ arguments: [String], name: String, stdin: FileHandle? = nil) throws
    -> ChildProcess
  {
    try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      arguments + ["--state-dir", directory.path + "/" + name] + endpointArguments,
      environment: environment, stdin: stdin)
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

  /// Pairs remote `name`, typing `wrongFirst` wrong PINs before the right one read from the
  /// screen. Returns the finished pair process.
  func pair(name: String, screen: ChildProcess, wrongFirst: Int = 0, from start: Int = 0) throws
    -> ChildProcess
  {
    let input = Pipe()
    let process = try remote(
      ["pair", "--name", name, "--timeout", "5"], name: name,
      stdin: input.fileHandleForReading)
    let prompt = try screen.waitForLine(from: start, timeout: 15, "the PIN overlay") {
      $0.hasPrefix(#"{"pairing":{"#)
    }
    let pin = try #require(Self.pin(in: prompt.line))
    let wrong = String(format: "%06d", (Int(pin).map { $0 + 1 } ?? 1) % 1_000_000)
    let lines = Array(repeating: wrong, count: wrongFirst) + [pin]
    input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    try input.fileHandleForWriting.close()
    _ = try process.waitForExit(timeout: 30)
    return process
  }

  static func pin(in line: String) -> String? {
    guard let data = line.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let pairing = object["pairing"] as? [String: Any]
    else { return nil }
    return pairing["pin"] as? String
  }
}

@Suite("Security: CURVE, ZAP allow-list, pairing, revoke, pinned broker key", .serialized)
struct SecurityTests {
  @Test("an unpaired remote is refused by ZAP and says 'not paired: run tenfoot-remote pair'")
  func unpairedRemoteRefused() throws {
    let stack = try SecureStack()
    let screen = try stack.screen()
    try screen.waitForFrame(timeout: 15, "the screen's first frame over CURVE") {
      $0.focused == "r0c0"
    }
    // No broker key pinned at all.
    let bare = try stack.remote(["press", "right"], name: "bare")
    #expect(try bare.waitForExit(timeout: 10) != 0)
    #expect(bare.errors.joined().contains("not paired: run tenfoot-remote pair"), "\(bare.errors)")
    // The right broker key, but a key the allow-list does not hold: ZAP refuses the handshake.
    let keyed = try stack.remote(
      ["press", "right", "--broker-key", try stack.brokerKey(), "--timeout", "5"], name: "keyed")
    let started = Date()
    #expect(try keyed.waitForExit(timeout: 10) == 1)
    #expect(Date().timeIntervalSince(started) < 5, "the refusal is seen, not timed out")
    #expect(
      keyed.errors.joined().contains("not paired: run tenfoot-remote pair"), "\(keyed.errors)")
    let keyFile = stack.directory.path + "/keyed/key.json"
    let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let brokerKeyFile = stack.dataDirectory + "/broker-key.json"
    let brokerMode =
      try FileManager.default.attributesOfItem(atPath: brokerKeyFile)[.posixPermissions] as? Int
    #expect(brokerMode == 0o600)
  }

  @Test("pairing: wrong PINs back off 1 s then 2 s, the right PIN pairs, revoke refuses at once")
  func pairBackoffAndRevoke() throws {
    let stack = try SecureStack()
    let screen = try stack.screen()
    let first = try screen.waitForFrame(timeout: 15, "first frame") { $0.focused == "r0c0" }

    let pair = try stack.pair(name: "phone", screen: screen, wrongFirst: 2, from: first.index)
    let pairErrors = pair.errors.joined(separator: "\n")
    #expect(pairErrors.contains("wrong PIN: try again in 1 s"), "\(pairErrors)")
    #expect(pairErrors.contains("wrong PIN: try again in 2 s"), "\(pairErrors)")
    let paired = try #require(
      pair.output.first { $0.hasPrefix("paired: this remote is ") }, "\(pair.output) \(pairErrors)")
    let id = String(try #require(paired.split(separator: " ").dropFirst(4).first))
    try screen.waitForLine(from: first.index, "the PIN overlay hidden again") {
      $0 == #"{"pairing":null}"#
    }
    #expect(
      try SecureStack.run("tenfoot-broker", ["remotes", "list", "--data-dir", stack.dataDirectory])
        .contains { $0.hasPrefix(id) && $0.contains("phone") })

    let press = try stack.remote(["press", "right"], name: "phone")
    #expect(try press.waitForExit(timeout: 10) == 0, "\(press.errors)")
    try screen.waitForFrame(from: first.index, "r0c1 focused by the paired remote") {
      $0.focused == "r0c1"
    }

    // An open connection: one key, then revoke, then the next key on the same connection.
    let input = Pipe()
    let live = try stack.remote(["script", "-"], name: "phone", stdin: input.fileHandleForReading)
    input.fileHandleForWriting.write(Data("left\n".utf8))
    try live.waitForLine(timeout: 10, "the live remote's first key") { $0.hasPrefix("left:") }
    _ = try SecureStack.run(
      "tenfoot-broker", ["remotes", "revoke", id, "--data-dir", stack.dataDirectory])
    input.fileHandleForWriting.write(Data("right\n".utf8))
    #expect(try live.waitForExit(timeout: 10) != 0)
    #expect(live.errors.joined().contains("not paired"), "\(live.errors)")
    #expect(!live.output.contains { $0.hasPrefix("right:") })
    try input.fileHandleForWriting.close()

    let again = try stack.remote(["press", "right"], name: "phone")
    #expect(try again.waitForExit(timeout: 10) != 0)
    #expect(again.errors.joined().contains("not paired: run tenfoot-remote pair"))
  }

  @Test("Z85 keys starting with '-' are taken as values, not flags")
  func dashKeys() throws {
    let directory = try TemporaryDirectory()
    let key = "-99^O{y1djo}YTteE7-$agBs2e&.wvc2cY.3%$E}"
    let added = try SecureStack.run(
      "tenfoot-broker",
      ["remotes", "add", "--data-dir", directory.path + "/b", "--name", "x", "--key", key])
    #expect(added.first?.hasPrefix("allowed ") == true, "\(added)")
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      [
        "press", "up", "--broker-key", key, "--control", "tcp://127.0.0.1:9", "--state",
        "tcp://127.0.0.1:9", "--state-dir", directory.path + "/r", "--timeout", "0.5",
      ])
    #expect(try remote.waitForExit(timeout: 10) == 1)
    #expect(remote.errors.joined().contains("nothing is listening"), "\(remote.errors)")
  }

  @Test("a broker whose key changed is refused by a paired remote, with a clear message")
  func brokerKeyChanged() throws {
    let stack = try SecureStack()
    let screen = try stack.screen()
    let first = try screen.waitForFrame(timeout: 15, "first frame") { $0.focused == "r0c0" }
    let pair = try stack.pair(name: "phone", screen: screen, from: first.index)
    #expect(pair.output.contains { $0.hasPrefix("paired:") }, "\(pair.errors)")

    // Reinstalled broker: same ports, a new key pair.
    try FileManager.default.removeItem(atPath: stack.dataDirectory + "/broker-key.json")
    try stack.restartBroker()
    let press = try stack.remote(["press", "right", "--timeout", "2"], name: "phone")
    #expect(try press.waitForExit(timeout: 15) == 1)
    #expect(press.errors.joined().contains("presents a different key"), "\(press.errors)")
    let repair = try stack.remote(["pair", "--timeout", "5"], name: "phone")
    #expect(try repair.waitForExit(timeout: 15) == 1)
    #expect(repair.errors.joined().contains("presents a different key"), "\(repair.errors)")
  }
}
