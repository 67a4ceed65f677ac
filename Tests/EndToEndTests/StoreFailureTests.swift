import Foundation
import TestSupport
import Testing

/// The broker's data directory on a small tmpfs that fills up: changes are refused with
/// STORE_UNAVAILABLE and not published; once space is free the broker serves again, and no
/// acknowledged change is lost across a kill -9.
@Suite("Store failure: a full disk", .serialized)
struct StoreFailureTests {
  @Test(
    "disk full → STORE_UNAVAILABLE, nothing applied or published; space freed → serves again",
    .enabled(if: getuid() == 0, "mounting a small tmpfs for the data directory needs root"))
  func diskFull() throws {
    let scratch = try TemporaryDirectory()
    let mount = try SmallFilesystem(at: scratch.path + "/data", size: "1m")
    defer { mount.unmount() }
    let stack = try Stack(.ipc, brokerArguments: ["--data-dir", mount.path])
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 1, columns: 3)])
    let first = try screen.waitForFrame(timeout: 15, "first frame") { $0.focused == "r0c0" }
    let moved = try stack.remote(["press", "right"])
    #expect(moved.status == 0, "\(moved.errors)")
    let atR0C1 = try screen.waitForFrame(from: first.index, "r0c1 focused") {
      $0.focused == "r0c1"
    }

    try mount.fill()
    // The toggle (select's release) and a move change durable state: both refused.
    let toggle = try stack.remote(["press", "select"])
    #expect(toggle.status != 0, "a change the disk could not hold was acknowledged")
    #expect(toggle.errors.joined().contains("store_unavailable"), "\(toggle.errors)")
    let refusedMove = try stack.remote(["press", "right"])
    #expect(refusedMove.status != 0, "\(refusedMove.output)")
    #expect(refusedMove.errors.joined().contains("store_unavailable"), "\(refusedMove.errors)")
    try stack.broker.waitForErrorLine(timeout: 5, "the broker's log line about the store") {
      $0.contains("session store write failed") && $0.contains(mount.path)
    }

    mount.free()
    let beforeRecovery = screen.output.count
    let recovered = try stack.remote(["press", "right"])
    #expect(recovered.status == 0, "\(recovered.errors)")
    #expect(recovered.output.last?.hasSuffix("focused r0c2") == true, "\(recovered.output)")
    let atR0C2 = try screen.waitForFrame(from: atR0C1.index, "r0c2 focused after recovery") {
      $0.focused == "r0c2"
    }
    // Publications are ordered: once the recovery's frame is here, anything the refused
    // requests had published would be here before it.
    #expect(
      atR0C2.index >= beforeRecovery,
      "r0c2 was shown before the recovery: the refused move was published")
    let shown = screen.frames
    #expect(
      !shown.contains { $0.events.contains("activated:r0c1") },
      "the refused toggle was published")
    #expect(atR0C2.frame.states["r0c1"] == "unfocused", "the refused toggle was applied")
    try stack.broker.waitForErrorLine(timeout: 5, "the broker's recovery line") {
      $0.contains("session store writable again")
    }

    // Durable: after kill -9 the acknowledged move is there, the refused toggle is not.
    try stack.restartBroker()
    let restored = try screen.waitForFrame(from: atR0C2.index, timeout: 10, "restored state") {
      $0.epoch != atR0C2.frame.epoch
    }
    #expect(restored.frame.focused == "r0c2", "\(restored.frame)")
    #expect(restored.frame.states["r0c1"] == "unfocused", "\(restored.frame)")
  }
}
