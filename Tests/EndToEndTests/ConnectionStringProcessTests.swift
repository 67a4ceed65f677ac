import Foundation
import TestSupport
import Testing

/// `tenfoot-broker invite` prints one shell-safe line; a screen (from `$TENFOOT_BROKER`) and a
/// remote (`--broker`) reach a CURVE broker with it alone, no endpoints and no Z85 key.
@Suite("Connection string: invite, --broker, $TENFOOT_BROKER", .serialized)
struct ConnectionStringProcessTests {
  static func port(_ endpoint: String) throws -> String {
    try #require(endpoint.split(separator: ":").last.map(String.init))
  }

  @Test("a screen and a remote pair and press with only the connection string")
  func inviteAndConnect() throws {
    let stack = try SecureStack()
    let line = try #require(
      try SecureStack.run(
        "tenfoot-broker",
        [
          "invite", "--data-dir", stack.dataDirectory, "--host", "127.0.0.1", "--port",
          try Self.port(stack.control), "--state-port", try Self.port(stack.state),
          "--pairing-port", try Self.port(stack.pairing),
        ]
      ).first)
    let unquoted = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/,@")
    #expect(line.hasPrefix("tenfoot://") && line.allSatisfy(unquoted.contains), "\(line)")

    let layout = try stack.directory.write("grid.json", TestLayouts.gridJSON(rows: 3, columns: 3))
    var environment = stack.environment
    environment["TENFOOT_BROKER"] = line
    let screen = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--layout", layout, "--renderer", "headless", "--id", "main", "--state-dir",
        stack.directory.path + "/screen",
      ], environment: environment)
    defer { screen.kill() }
    let first = try screen.waitForFrame(timeout: 15, "the screen's first frame") {
      $0.focused == "r0c0"
    }

    let input = Pipe()
    let pair = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      [
        "pair", "--name", "couch", "--timeout", "5", "--broker", line, "--state-dir",
        stack.directory.path + "/couch",
      ], environment: stack.environment, stdin: input.fileHandleForReading)
    let prompt = try screen.waitForLine(from: first.index, timeout: 15, "the PIN") {
      $0.hasPrefix(#"{"pairing":{"#)
    }
    let pin = try #require(SecureStack.pin(in: prompt.line))
    input.fileHandleForWriting.write(Data((pin + "\n").utf8))
    try input.fileHandleForWriting.close()
    #expect(try pair.waitForExit(timeout: 30) == 0, "\(pair.errors)")

    let press = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      ["press", "right", "--broker", line, "--state-dir", stack.directory.path + "/couch"],
      environment: stack.environment)
    #expect(try press.waitForExit(timeout: 10) == 0, "\(press.errors)")
    _ = try screen.waitForFrame(from: first.index, timeout: 10, "the press applied") {
      $0.focused == "r0c1"
    }
  }

  @Test("a bad connection string is a usage error that says what is wrong")
  func badLine() throws {
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      ["press", "right", "--broker", "tenfoot://nope@127.0.0.1:7700"])
    #expect(try remote.waitForExit(timeout: 10) == 64)
    #expect(remote.errors.joined().contains("must be the broker's public key in base64url"))
  }
}
