import Foundation
import TestSupport
import Testing

/// The Python package in `python/` (pyzmq + code generated from `proto/`, installed from its
/// wheel) registers a layout, drives it as a remote and checks every reply and state it gets
/// from the real broker binary (`python/e2e/interop_test.py`); its CPace (rbcl + hashlib)
/// passes the draft's test vectors (`python/tests`) and it pairs by PIN with a CURVE broker
/// beside the Swift remote. `scripts/test` installs the package into a fresh virtual
/// environment and sets `TENFOOT_PYTHON`; without it (a bare `swift test`) these tests are
/// reported as skipped.
@Suite("Python interop against the Swift broker", .serialized)
struct PythonInteropTests {
  static let python = ProcessInfo.processInfo.environment["TENFOOT_PYTHON"]
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  /// The interop and pairing checks.
  static let directory = root.appendingPathComponent("python/e2e").path
  /// The package's unit tests.
  static let unitTests = root.appendingPathComponent("python/tests").path

  @Test(
    "a Python screen and remote pass every check",
    .enabled(if: python != nil, "TENFOOT_PYTHON is not set (scripts/python-package prints it)"),
    arguments: Network.allCases)
  func pythonClient(_ network: Network) throws {
    let python = try #require(Self.python)
    let script = Self.directory + "/interop_test.py"
    let stack = try Stack(network)
    let client = try ChildProcess(
      python, [script, "--control", stack.control, "--state", stack.state, "--timeout", "10"])
    let status = try client.waitForExit(timeout: 120)
    #expect(
      status == 0,
      "python interop failed:\n\(client.output.suffix(5).joined(separator: "\n"))\n\(client.errors.joined(separator: "\n"))"
    )
    let summary = try #require(client.output.last, "the client printed nothing")
    #expect(summary.hasPrefix("interop: PASS"), "last line: \(summary)")
    // The broker logged the deliberate bad input as refusals and kept serving.
    try stack.broker.waitForErrorLine("the broker's refusal log line") {
      $0.contains("request refused")
    }
  }

  @Test(
    "the Python unit tests pass: CPace's test vectors, the round shared with the Swift tests, the PIN dialogue",
    .enabled(if: python != nil, "TENFOOT_PYTHON is not set (scripts/python-package prints it)"))
  func pythonUnitTests() throws {
    let python = try #require(Self.python)
    let tests = try ChildProcess(
      python, ["-m", "unittest", "discover", "-s", Self.unitTests, "-p", "test_*.py", "-v"])
    let status = try tests.waitForExit(timeout: 60)
    // unittest reports on stderr: one line per test, then "Ran N tests", then "OK".
    #expect(status == 0, "\(tests.errors.joined(separator: "\n"))")
    #expect(tests.errors.contains("OK"), "\(tests.errors.suffix(5))")
    let ran = try #require(tests.errors.first { $0.hasPrefix("Ran ") }, "\(tests.errors.suffix(5))")
    let count = ran.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    #expect(count >= 49, "fewer tests than written: \(ran)")
  }

  @Test(
    "a Python remote pairs by PIN over CPace (wrong PIN refused, back-off), drives a real screen over CURVE, and a Swift remote pairs beside it",
    .enabled(if: python != nil, "TENFOOT_PYTHON is not set (scripts/python-package prints it)"))
  func pythonPairing() throws {
    let python = try #require(Self.python)
    let stack = try SecureStack()
    let screen = try stack.screen()
    let first = try screen.waitForFrame(timeout: 15, "first frame") { $0.focused == "r0c0" }

    // The Python remote asks to pair; the PIN it needs is the one the screen shows.
    let input = Pipe()
    let client = try ChildProcess(
      python,
      [
        Self.directory + "/pairing_test.py", "--pairing", stack.pairing, "--control",
        stack.control, "--state", stack.state, "--screen", "main",
        // One argument: a Z85 key may start with "-", which argparse would take for a flag.
        "--broker-key=" + (try stack.brokerKey()), "--name", "python", "--timeout", "10",
      ], stdin: input.fileHandleForReading)
    let say = { (line: String) in input.fileHandleForWriting.write(Data((line + "\n").utf8)) }
    try client.waitForLine(timeout: 60, "the Python remote waiting for the PIN") {
      $0 == "pairing: waiting for the PIN"
    }
    let prompt = try screen.waitForLine(from: first.index, timeout: 15, "the PIN overlay") {
      $0.hasPrefix(#"{"pairing":{"#)
    }
    let pin = try #require(SecureStack.pin(in: prompt.line), "\(prompt.line)")
    // The script tries the PIN plus one first: PAIRING_FAILED, then PAIRING_BACKOFF.
    say(pin)
    let paired = try client.waitForLine(timeout: 30, "the Python remote paired") {
      $0.hasPrefix("paired: this remote is ")
    }
    let pythonID = String(try #require(paired.line.split(separator: " ").dropFirst(4).first))
    let hidden = try screen.waitForLine(from: prompt.index, "the PIN overlay hidden again") {
      $0 == #"{"pairing":null}"#
    }
    try stack.broker.waitForErrorLine("the broker's log line for the wrong PIN") {
      $0.contains("pairing refused: wrong PIN")
    }

    // Its paired key works on control over CURVE: a press moves focus on the real screen.
    say("right")
    try client.waitForLine(timeout: 15, "the Python remote's press") {
      $0 == "python: right -> focused r0c1"
    }
    try screen.waitForFrame(from: first.index, "r0c1 focused by the Python remote") {
      $0.focused == "r0c1"
    }

    // A Swift remote pairs too (a new pairing, a new PIN) and drives the same screen.
    let swiftPair = try stack.pair(name: "swift", screen: screen, from: hidden.index + 1)
    let swiftPaired = try #require(
      swiftPair.output.first { $0.hasPrefix("paired: this remote is ") },
      "\(swiftPair.output) \(swiftPair.errors)")
    let swiftID = String(try #require(swiftPaired.split(separator: " ").dropFirst(4).first))
    #expect(swiftID != pythonID)
    let press = try stack.remote(["press", "down"], name: "swift")
    #expect(try press.waitForExit(timeout: 10) == 0, "\(press.errors)")
    let down = try screen.waitForFrame(from: first.index, "r1c1 focused by the Swift remote") {
      $0.focused == "r1c1"
    }

    // The Python remote's connection still works beside it.
    say("left")
    try client.waitForLine(timeout: 15, "the Python remote's second press") {
      $0 == "python: left -> focused r1c0"
    }
    try screen.waitForFrame(from: down.index, "r1c0 focused by the Python remote") {
      $0.focused == "r1c0"
    }
    try input.fileHandleForWriting.close()
    let status = try client.waitForExit(timeout: 30)
    #expect(
      status == 0,
      "python pairing failed:\n\(client.output.suffix(5).joined(separator: "\n"))\n\(client.errors.joined(separator: "\n"))"
    )
    #expect(client.output.last?.hasPrefix("pairing: PASS") == true, "\(client.output.suffix(3))")
    let remotes = try SecureStack.run(
      "tenfoot-broker", ["remotes", "list", "--data-dir", stack.dataDirectory])
    #expect(remotes.contains { $0.hasPrefix(pythonID) && $0.contains("python") }, "\(remotes)")
    #expect(remotes.contains { $0.hasPrefix(swiftID) && $0.contains("swift") }, "\(remotes)")
  }
}
