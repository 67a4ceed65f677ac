import Foundation
import TestSupport
import Testing

/// The interactive remote's pointer mode in a real terminal (tmux): the remote asks for xterm
/// mouse reports, the test types SGR mouse sequences into the pane as a terminal would send
/// them, and a headless screen sees the pointer and the focus follow.
@Suite("The interactive remote follows the terminal's mouse (tmux)", .serialized)
struct TerminalMouseTests {
  /// An SGR mouse report: `code` 35 a motion with no button, 0 a left press (`M`), 0 with
  /// `released` a left release (`m`); column and row from 1.
  static func sgr(_ code: Int, _ column: Int, _ row: Int, released: Bool = false) -> String {
    "\u{1B}[<\(code);\(column);\(row)\(released ? "m" : "M")"
  }

  @Test(
    "mouse reporting on; moves over a poster focus it, a click activates it; m and q turn reporting off"
  )
  func mouseFollows() throws {
    try #require(TerminalScreenTests.hasTmux, "tmux is not installed: run scripts/bootstrap")
    let stack = try Stack(.ipc)
    // Five 200×300 posters p0…p4 (x = 100 + 250 i, y = 300) on the 1920×1080 canvas.
    let file = try stack.directory.write("row.json", PointerAcrossProcessesTests.layout)
    let screen = try stack.screen(["--layout", file])
    let first = try screen.waitForFrame("first frame") { $0.focused == "p0" }
    let command =
      "\(TestEnvironment.binary("tenfoot-remote")); echo remote-exited-$?" + Tmux.keepAlive
    // 100 × 30 cells for 1920 × 1080 points: a cell is 19.2 × 36 points; column c is
    // x = 19.2 c − 9.6 and row r is y = 36 r − 18.
    let tmux = try Tmux(columns: 100, rows: 30, command: command, environment: stack.environment)
    defer { tmux.stop() }
    try tmux.waitFor("the remote's help header") { $0.contains("driving screen \"main\"") }
    #expect(try tmux.pane("mouse_any_flag") == "1", "any-motion mouse reporting (1003) is on")
    #expect(try tmux.pane("mouse_sgr_flag") == "1", "SGR mouse reports (1006) are on")

    // Cell (20, 13) is (374.4, 450), over p1; cell (37, 13) is (700.8, 450), p2's centre.
    try tmux.run([
      "send-keys", "-t", tmux.session, "-l", Self.sgr(35, 20, 13) + Self.sgr(35, 37, 13),
    ])
    let pointed = try screen.waitForFrame(from: first.index, "p2 focused by the mouse") {
      $0.focused == "p2" && PointerAcrossProcessesTests.pointer($0)?["target"] as? String == "p2"
    }
    let pointer = try #require(PointerAcrossProcessesTests.pointer(pointed.frame))
    #expect(pointer["visible"] as? Bool == true, "\(pointed)")
    #expect(abs((pointer["x"] as? Double ?? 0) - 700.8) < 1, "cell 37's centre: \(pointed)")
    #expect(abs((pointer["y"] as? Double ?? 0) - 450) < 1, "row 13's centre: \(pointed)")
    try tmux.waitFor("the remote's line for the mouse") {
      $0.contains("focused p2 · at 701, 450 (cell 37, 13)")
    }

    // Cell (24, 13) is (451.2, 450), over p1; a left click there activates it.
    try tmux.run(
      [
        "send-keys", "-t", tmux.session, "-l",
        Self.sgr(35, 24, 13) + Self.sgr(0, 24, 13) + Self.sgr(0, 24, 13, released: true),
      ])
    let clicked = try screen.waitForFrame(from: pointed.index, "p1 activated by the click") {
      $0.events.contains("activated:p1")
    }
    #expect(clicked.frame.focused == "p1")

    // m turns reporting off and on again.
    try tmux.run(["send-keys", "-t", tmux.session, "m"])
    try tmux.waitFor("mouse off") { $0.contains("mouse off") }
    #expect(try tmux.pane("mouse_any_flag") == "0", "reporting off after m")
    try tmux.run(["send-keys", "-t", tmux.session, "m"])
    try tmux.waitFor("mouse on again") { $0.contains("mouse on: the mouse points") }
    #expect(try tmux.pane("mouse_any_flag") == "1", "reporting on after a second m")

    try tmux.run(["send-keys", "-t", tmux.session, "q"])
    let pane = try tmux.waitFor("the remote to quit on q") { $0.contains("remote-exited-") }
    #expect(pane.contains("remote-exited-0"), "\(pane)")
    #expect(try tmux.pane("mouse_any_flag") == "0", "reporting off after quitting")
    #expect(try tmux.pane("mouse_sgr_flag") == "0", "SGR reports off after quitting")
  }
}
