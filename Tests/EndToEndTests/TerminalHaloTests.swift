import Foundation
import TestSupport
import Testing

/// `examples/ipad.json` on the terminal renderer in tmux, driven by the built remote: focus
/// shows as a halo (not the lift), arrows stay in the photo grid, Tab leaves it.
@Suite("iPadOS navigation and the halo in a real terminal (tmux)", .serialized)
struct TerminalHaloTests {
  @Test("a photo shows a rounded halo; arrows stop at the grid's edge; Tab returns to the list")
  func haloInTmux() throws {
    try #require(TerminalScreenTests.hasTmux, "tmux is not installed: run scripts/bootstrap")
    let stack = try Stack(.ipc)
    let layout = repositoryRoot() + "/examples/ipad.json"
    let tmux = try Tmux.terminalScreen(layout: layout, stack: stack, columns: 120, rows: 40)
    defer { tmux.stop() }
    try tmux.waitFor("the sidebar's first list focused") { $0.contains("▶ Today (list-0)") }

    let press = try stack.remote(["press", "tab", "down", "left"])
    #expect(press.status == 0, "remote failed: \(press.errors)")
    #expect(
      press.output.last?.contains("bump") == true, "left of the grid is its edge: \(press.output)")
    let photo = try tmux.waitFor("the second row's first photo focused") {
      $0.contains("▶ Photo 5 (photo-1-0)")
    }
    // The photo has a corner radius: a rounded halo, and no lifted double border or shadow.
    #expect(photo.contains("╭") && photo.contains("╯"), "\(photo)")
    #expect(!photo.contains("╔") && !photo.contains("▒"), "\(photo)")

    let back = try stack.remote(["press", "shift-tab"])
    #expect(back.status == 0, "remote failed: \(back.errors)")
    try tmux.waitFor("Shift-Tab back to the list") { $0.contains("▶ Today (list-0)") }
  }
}
