import Foundation
import TestSupport
import Testing

@Suite("Durability: kill -9 the broker mid-session", .serialized)
struct DurabilityTests {
  @Test("focus and selections come back after kill -9; screen and remote carry on unrestarted")
  func killNineAndRestart() throws {
    let stack = try SecureStack()
    let screen = try stack.screen()
    let first = try screen.waitForFrame(timeout: 15, "first frame") { $0.focused == "r0c0" }
    let pair = try stack.pair(name: "phone", screen: screen, from: first.index)
    #expect(pair.output.contains { $0.hasPrefix("paired:") }, "\(pair.errors)")

    let input = Pipe()
    let remote = try stack.remote(
      ["script", "-", "--timeout", "5"], name: "phone", stdin: input.fileHandleForReading)
    input.fileHandleForWriting.write(Data("right\nselect\ndown\n".utf8))
    try remote.waitForLine(timeout: 10, "the third key acknowledged") { $0.hasPrefix("down:") }
    let before = try screen.waitForFrame(from: first.index, "r1c1 focused, r0c1 selected") {
      $0.focused == "r1c1" && $0.states["r0c1"] == "selected"
    }

    try stack.restartBroker()
    let restarted = Date()
    let after = try screen.waitForFrame(from: before.index, timeout: 10, "the restored state") {
      $0.epoch != before.frame.epoch
    }
    let recovery = Date().timeIntervalSince(restarted)
    print("durability: screen resynced \(Int(recovery * 1000)) ms after the broker was ready")
    #expect(after.frame.focused == "r1c1", "\(after.frame)")
    #expect(after.frame.states["r0c1"] == "selected", "\(after.frame)")

    // The same remote process goes on over its reconnected CURVE connection.
    input.fileHandleForWriting.write(Data("left\n".utf8))
    let moved = try remote.waitForLine(timeout: 10, "the remote's key after the restart") {
      $0.hasPrefix("left:")
    }
    #expect(moved.line.hasSuffix("focused r1c0"), "\(moved.line)")
    try screen.waitForFrame(from: after.index, "r1c0 focused after the restart") {
      $0.focused == "r1c0"
    }
    try input.fileHandleForWriting.close()
    #expect(try remote.waitForExit(timeout: 10) == 0, "\(remote.errors)")
  }
}
