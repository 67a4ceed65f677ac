import Foundation
import TestSupport
import Testing

/// A remote started beside its screen (the demo, a kiosk's units) waits for the screen with
/// `--wait-for-screen` instead of failing because it said hello first.
@Suite("A remote waits for its screen", .serialized)
struct RemoteWaitTests {
  @Test("press --wait-for-screen, started before any screen, presses once the screen registers")
  func waits() throws {
    let stack = try Stack(.ipc)
    let early = try stack.remote(["press", "right"])
    #expect(early.status != 0, "without the flag it fails at once")
    #expect(early.errors.joined().contains("no screen is registered"), "\(early.errors)")

    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      ["press", "right", "--wait-for-screen", "20"] + stack.endpointArguments,
      environment: stack.environment)
    try remote.waitForErrorLine("the remote waiting") { $0.contains("waiting for a screen") }
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 1, columns: 3)])
    // The remote may press before the screen prints its first frame (it wakes on the same
    // registration), so the first frame shows r0c0 or already r0c1.
    _ = try screen.waitForFrame("the screen's first frame") { $0.focused != nil }
    #expect(try remote.waitForExit(timeout: 20) == 0, "\(remote.errors)")
    #expect(remote.output.first?.hasSuffix("focused r0c1") == true, "\(remote.output)")
    _ = try screen.waitForFrame("the press on the screen") { $0.focused == "r0c1" }
    #expect(!screen.frames.contains { $0.focused == "r0c2" }, "pressed once: \(screen.frames)")
  }
}
