import Foundation
import TestSupport
import Testing

@Suite("Durability: kill -9 the broker mid-session", .serialized)
struct DurabilityTests {
  @Test(
    "focus, selections and text come back after kill -9; screen and remote carry on unrestarted")
  func killNineAndRestart() throws {
    let stack = try SecureStack()
    let screen = try stack.screen(textField: true)
    let first = try screen.waitForFrame(timeout: 15, "first frame") { $0.focused == "r0c0" }
    let pair = try stack.pair(name: "phone", screen: screen, from: first.index)
    #expect(pair.output.contains { $0.hasPrefix("paired:") }, "\(pair.errors)")

    let input = Pipe()
    let remote = try stack.remote(
      ["script", "-", "--timeout", "5"], name: "phone", stdin: input.fileHandleForReading)
    input.fileHandleForWriting.write(
      Data("right\nselect\ndown\ndown\nright\ntype \"kept\"\n".utf8))
    try remote.waitForLine(timeout: 10, "the typing acknowledged") { $0.hasPrefix("type") }
    let before = try screen.waitForFrame(
      from: first.index, "r2c2 focused holding \"kept\", r0c1 selected"
    ) {
      $0.focused == "r2c2" && $0.states["r0c1"] == "selected"
        && $0.line.contains(#""r2c2":"kept""#)
    }

    try stack.restartBroker()
    let restarted = Date()
    let after = try screen.waitForFrame(from: before.index, timeout: 10, "the restored state") {
      $0.epoch != before.frame.epoch
    }
    let recovery = Date().timeIntervalSince(restarted)
    print("durability: screen resynced \(Int(recovery * 1000)) ms after the broker was ready")
    #expect(after.frame.focused == "r2c2", "\(after.frame)")
    #expect(after.frame.states["r0c1"] == "selected", "\(after.frame)")
    #expect(after.frame.line.contains(#""r2c2":"kept""#), "the text came back: \(after.frame)")

    // The same remote process goes on over its reconnected CURVE connection.
    input.fileHandleForWriting.write(Data("up\n".utf8))
    let moved = try remote.waitForLine(timeout: 10, "the remote's key after the restart") {
      $0.hasPrefix("up:")
    }
    #expect(moved.line.hasSuffix("focused r1c2"), "\(moved.line)")
    try screen.waitForFrame(from: after.index, "r1c2 focused after the restart") {
      $0.focused == "r1c2"
    }
    try input.fileHandleForWriting.close()
    #expect(try remote.waitForExit(timeout: 10) == 0, "\(remote.errors)")
  }
}
