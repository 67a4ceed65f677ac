import Colour
import FocusEngine
import Foundation
import ScreenCore
import TerminalScreen
import TerminalUI
import TestSupport
import Testing

/// What the terminal renderer draws of an item's content: the example layout
/// (`examples/content.json`) and hostile texts.
@Suite("Item content in the terminal")
struct TerminalContentTests {
  @Test(
    "terminal: subtitles under titles and badges on the cards, at 80×24 and 160×48",
    arguments: [(80, 24), (160, 48)])
  func terminalContent(columns: Int, rows: Int) throws {
    let layout = try ScreenFrames.contentExample()
    let grid = TerminalRenderer.compose(
      ScreenFrames.content(layout, focused: "canyon"), columns: columns, rows: rows,
      colorMode: .truecolor)
    let text = grid.lines().joined(separator: "\n")
    #expect(text.contains("[New]"), "\(text)")
    #expect(text.contains("[Coming"), "the unavailable poster's badge (cut to fit):\n\(text)")
    let titleRow = try #require(grid.lines().firstIndex { $0.contains("Orbit") }, "\(text)")
    let subtitleRow = try #require(grid.lines().firstIndex { $0.contains("2031") }, "\(text)")
    #expect(subtitleRow == titleRow + 1, "the subtitle is on the line under the title:\n\(text)")
    if columns >= 160 {
      #expect(text.contains("2031 · Space drama") && text.contains("[Coming soon]"), "\(text)")
    }
  }

  @Test("terminal: the accent colours an unfocused card's border; the five states stay apart")
  func terminalAccent() throws {
    var layout = ScreenFrames.hostileContent
    layout.items.append(
      Item(
        id: "c", title: "C", frame: Rect(x: 20, y: 390, width: 10, height: 10),
        content: ItemContent(accent: "#00ff00")))
    let frame = ScreenFrames.content(layout, focused: "b")
    let grid = TerminalRenderer.compose(frame, columns: 80, rows: 24, colorMode: .truecolor)
    let corner = try #require(
      (0..<grid.rows).lazy.compactMap { y in
        (0..<grid.columns).first { grid[$0, y].character == "┌" }.map { grid[$0, y] }
      }.first)
    #expect(corner.style.foreground == RGB(0xFF, 0x88, 0x00), "a's border is its accent")
    // Focused, the same card keeps the palette's ring: double lines on the focus fill.
    let focused = TerminalRenderer.compose(
      ScreenFrames.content(layout, focused: "a"), columns: 80, rows: 24, colorMode: .truecolor)
    let ring = try #require(
      (0..<focused.rows).lazy.compactMap { y in
        (0..<focused.columns).first { focused[$0, y].character == "╔" }.map { focused[$0, y] }
      }.first)
    #expect(ring.style == TerminalPalette.normal.focusedBorder)
    // High contrast ignores the accent.
    let high = TerminalRenderer.compose(
      frame, columns: 80, rows: 24, colorMode: .truecolor,
      display: DisplayOptions(reduceMotion: false, contrast: .high, textSize: .normal))
    let highCorner = try #require(
      (0..<high.rows).lazy.compactMap { y in
        (0..<high.columns).first { high[$0, y].character == "┌" }.map { high[$0, y] }
      }.first)
    #expect(highCorner.style == TerminalPalette.high.unfocusedBorder)
  }

  @Test("terminal: hostile content is filtered and measured like titles")
  func terminalHostile() throws {
    let grid = TerminalRenderer.compose(
      ScreenFrames.content(ScreenFrames.hostileContent, focused: "a"), columns: 80, rows: 24,
      colorMode: .truecolor)
    let text = grid.lines().joined(separator: "\n")
    #expect(!text.contains("\u{1B}"))
    #expect(text.contains("[新作]"), "\(text)")
    #expect(text.contains("[<New & hot>]"), "\(text)")
    for line in grid.lines() { #expect(TerminalText.width(line) <= 80, "\(line)") }
  }
}
