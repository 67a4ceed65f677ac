import Foundation
import TestSupport
import Testing

/// The Python client in `interop/python/` (pyzmq + code generated from `proto/` by the script
/// itself) registers a layout, drives it as a remote and checks every reply and state it gets
/// from the real broker binary. `scripts/test` creates the virtual environment and sets
/// `TENFOOT_PYTHON`; without it (a bare `swift test`) this test is reported as skipped.
@Suite("Python interop against the Swift broker", .serialized)
struct PythonInteropTests {
  static let python = ProcessInfo.processInfo.environment["TENFOOT_PYTHON"]

  @Test(
    "a Python screen and remote pass every check",
    .enabled(if: python != nil, "TENFOOT_PYTHON is not set (interop/python/setup-venv prints it)"),
    arguments: Network.allCases)
  func pythonClient(_ network: Network) throws {
    let python = try #require(Self.python)
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let script = root.appendingPathComponent("interop/python/interop_test.py").path
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
    #expect(stack.broker.errors.contains { $0.contains("request refused") })
  }
}
