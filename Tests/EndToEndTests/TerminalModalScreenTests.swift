import Foundation
import TestSupport
import Testing

/// The catalog's detail view in a real terminal: real broker, screen and remote processes, the
/// screen in a tmux pane of 160×48 (the size the garbled dialog was reported at), read back
/// with `capture-pane`.
@Suite("The detail view in a real terminal (tmux)", .serialized)
struct TerminalModalScreenTests {
  /// The panel's border in the pane's text: the rows and columns of the widest `┌─…─┐` box and
  /// its `└─…─┘` (no poster is half as wide). Columns count characters (the pane has no wide
  /// glyphs here).
  static func panel(in lines: [[Character]]) -> (top: Int, bottom: Int, left: Int, right: Int)? {
    var best: (row: Int, left: Int, right: Int)?
    for (row, line) in lines.enumerated() {
      var column = 0
      while column < line.count {
        guard line[column] == "┌" else {
          column += 1
          continue
        }
        var end = column + 1
        while end < line.count && line[end] == "─" { end += 1 }
        if end < line.count, line[end] == "┐", end - column > (best.map { $0.right - $0.left } ?? 0)
        {
          best = (row, column, end)
        }
        column = end
      }
    }
    guard let best, best.right - best.left >= 60 else { return nil }
    for row in (best.row + 1)..<lines.count where lines[row].count > best.right {
      if lines[row][best.left] == "└" && lines[row][best.right] == "┘" {
        return (best.row, row, best.left, best.right)
      }
    }
    return nil
  }

  @Test(
    "select opens the detail view as a clean modal: no text of the rows beneath inside it; Menu closes it"
  )
  func detailView() throws {
    try #require(TerminalScreenTests.hasTmux, "tmux is not installed: run scripts/bootstrap")
    let stack = try Stack(.ipc)
    let command =
      "\(TestEnvironment.binary("tenfoot-screen")) --renderer terminal" + Tmux.keepAlive
    let tmux = try Tmux(columns: 160, rows: 48, command: command, environment: stack.environment)
    defer { tmux.stop() }
    try tmux.waitFor("the catalog's first frame") { $0.contains("▶ The Long Field (upnext-0)") }

    let press = try stack.remote(["press", "down", "right", "right", "select"])
    #expect(press.status == 0, "remote failed: \(press.errors)")
    let pane = try tmux.waitFor("the detail view with Play focused") {
      $0.contains("(detail-play) · focused") && $0.contains("Favourite")
    }
    let lines = pane.split(separator: "\n", omittingEmptySubsequences: false).map {
      Array($0)
    }
    let box = try #require(Self.panel(in: lines), "a dialog panel in the pane:\n\(pane)")
    var inside: [String] = []
    for row in box.top...box.bottom {
      let line = lines[row]
      let end = min(line.count, box.right + 1)
      inside.append(box.left < end ? String(line[box.left..<end]) : "")
    }
    let dialog = inside.joined(separator: "\n")
    for word in ["Play", "Quiet", "Hours", "Favourite", "More", "Like", "This"] {
      #expect(dialog.contains(word), "\(word) in the dialog:\n\(dialog)")
    }
    // Titles and headings of the rows beneath (four letters or more, Quiet Hours excepted).
    let beneath = [
      "Long", "Field", "Night", "Train", "Harbor", "Coming", "Paper", "Moons", "Glass", "Orbit",
      "Locked", "Canyon", "Signal", "Tide", "Static", "Classics", "Silver", "Screen", "Restoring",
      "Golden", "Reel", "First", "Light", "Trending", "Kids", "Tiny", "Robots",
    ]
    for word in beneath {
      #expect(
        !dialog.contains(word), "\"\(word)\" of the rows beneath shows in the dialog:\n\(dialog)")
    }
    #expect(!dialog.contains("…"), "no dialog title is cut:\n\(dialog)")
    #expect(pane.contains("Settings"), "the home still shows (dimmed) around the dialog:\n\(pane)")

    let back = try stack.remote(["press", "menu"])
    #expect(back.status == 0, "remote failed: \(back.errors)")
    let closed = try tmux.waitFor("focus back on Quiet Hours") {
      $0.contains("▶ Quiet Hours (trending-3)")
    }
    #expect(!closed.contains("Favourite"), "the dialog is gone:\n\(closed)")
  }
}
