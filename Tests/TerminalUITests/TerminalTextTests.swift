import Testing

@testable import TerminalUI

/// The terminal filter and display widths (issue 17): controls never reach the terminal,
/// wide characters take two cells and keep the row's columns.
@Suite("Terminal text: the filter and display widths")
struct TerminalTextTests {
  @Test(
    "widths in cells: ASCII 1, CJK and emoji 2, combining marks 0",
    arguments: [
      ("abc", 3), ("東京", 4), ("😀", 2), ("e\u{301}", 1), ("Ame\u{301}lie", 6), ("가", 2),
      ("─│╔▒♥…", 6), ("\u{3000}", 2), ("", 0),
    ])
  func widths(_ text: String, _ width: Int) {
    #expect(TerminalText.width(text) == width)
  }

  /// Every C0 control, DEL and every C1 control.
  static let controls: [UInt32] = Array(0x00...0x1F) + Array(0x7F...0x9F)

  @Test("every C0 and C1 control shows as one visible �", arguments: controls)
  func controlsReplaced(_ value: UInt32) throws {
    let scalar = try #require(Unicode.Scalar(value))
    let text = "a" + String(Character(scalar)) + "b"
    #expect(TerminalText.printable(text) == "a\u{FFFD}b")
    #expect(TerminalText.width(text) == 3)
  }

  @Test("escape sequences arrive as text, not as commands")
  func escapeSequences() {
    let title = "Esc\u{1B}]0;HACKED\u{07}\u{1B}[2J"
    #expect(TerminalText.printable(title) == "Esc\u{FFFD}]0;HACKED\u{FFFD}\u{FFFD}[2J")
    let c1 = "x\u{9B}2J\u{9D}0;t\u{9C}"
    #expect(TerminalText.printable(c1) == "x\u{FFFD}2J\u{FFFD}0;t\u{FFFD}")
  }

  @Test("format characters, variation selectors and skin tones are left out")
  func leftOut() {
    #expect(TerminalText.printable("a\u{202E}b\u{2066}c\u{200D}d\u{AD}e") == "abcde")
    #expect(TerminalText.printable("❤\u{FE0F}") == "❤")
    #expect(TerminalText.printable("👍\u{1F3FD}") == "👍")
    // A ZWJ family is drawn as its members, whose widths every terminal agrees on.
    #expect(TerminalText.width("👨\u{200D}👩\u{200D}👧") == 6)
  }

  @Test("a leading combining mark sits on a space; marks are capped at four per glyph")
  func marks() {
    #expect(TerminalText.glyphs("\u{301}x").map(\.width) == [1, 1])
    let zalgo = "a" + String(repeating: "\u{301}", count: 50)
    let glyphs = TerminalText.glyphs(zalgo)
    #expect(glyphs.count == 1 && glyphs[0].character.unicodeScalars.count == 5)
  }

  @Test(
    "truncation cuts at a cell boundary with an ellipsis",
    arguments: [
      ("東京物語", 5, "東京…"), ("東京物語", 4, "東…"), ("東京物語", 8, "東京物語"),
      ("abcdef", 4, "abc…"), ("a東b", 3, "a…"), ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),
      ("abc", 0, ""),
    ])
  func truncation(_ text: String, _ width: Int, _ expected: String) {
    let cut = TerminalText.truncated(text, toWidth: width)
    #expect(cut == expected)
    #expect(TerminalText.width(cut) <= width)
  }

  @Test("multi-line printing keeps line feeds and filters each line")
  func newlines() {
    #expect(TerminalText.printable("a\nb\u{1B}c", newlines: true) == "a\nb\u{FFFD}c")
    #expect(TerminalText.printable("a\nb") == "a\u{FFFD}b")
  }
}

@Suite("Cell grid: wide characters keep the columns")
struct WideCellGridTests {
  @Test("a wide character takes two cells and the row stays columns wide")
  func twoCells() {
    var grid = CellGrid(columns: 8, rows: 1)
    let end = grid.put("|東京|", x: 0, y: 0)
    #expect(end == 6)
    #expect(grid[1, 0].character == "東" && grid[1, 0].width == 2)
    #expect(grid[2, 0].isContinuation)
    #expect(grid[5, 0].character == "|")
    #expect(grid.rowText(0) == "|東京|  ")
    #expect(TerminalText.width(grid.rowText(0)) == 8)
  }

  @Test("overwriting half of a wide character blanks its other half")
  func halves() {
    var grid = CellGrid(columns: 6, rows: 1)
    grid.put("東京", x: 0, y: 0)
    grid[1, 0] = Cell("x")
    #expect(grid.rowText(0) == " x京  ")
    grid[2, 0] = Cell("y")
    #expect(grid.rowText(0) == " xy   ")
    #expect(TerminalText.width(grid.rowText(0)) == 6)
  }

  @Test("a wide character that does not fit the last column is a space")
  func lastColumn() {
    var grid = CellGrid(columns: 3, rows: 1)
    grid.put("ab東", x: 0, y: 0)
    #expect(grid.rowText(0) == "ab ")
    var shifted = CellGrid(columns: 3, rows: 1)
    shifted.put("東ab", x: -1, y: 0)
    #expect(shifted.rowText(0) == " ab")
  }

  @Test("a cell never holds a control character")
  func cellFilter() {
    #expect(Cell("\u{1B}").character == "\u{FFFD}")
    #expect(Cell("\u{9B}").character == "\u{FFFD}")
    #expect(Cell("\r\n").character == "\u{FFFD}")
    #expect(Cell("\u{202E}").character == " ")
  }

  @Test("the ANSI diff writes a wide character once and keeps the cursor in step")
  func diff() {
    var before = CellGrid(columns: 6, rows: 1)
    before.put("ab", x: 0, y: 0)
    var after = before
    after.put("東", x: 2, y: 0)
    after.put("z", x: 4, y: 0)
    let bytes = after.ansiDiff(from: before, colorMode: .monochrome)
    #expect(bytes.contains("東z"), "\(bytes.debugDescription)")
    #expect(
      !bytes.contains("\u{1B}[1;5H"), "no move after a wide character: \(bytes.debugDescription)")
    var narrowed = after
    narrowed[3, 0] = Cell("q")
    let repaint = narrowed.ansiDiff(from: after, colorMode: .monochrome)
    #expect(repaint.contains(" q"), "both halves repainted: \(repaint.debugDescription)")
  }

  @Test("hostile text in a grid yields only cursor moves and colours as escape sequences")
  func noInjection() {
    var grid = CellGrid(columns: 40, rows: 2)
    grid.put("x\u{1B}]0;OWNED\u{07}\u{1B}[2J\u{9B}31m\u{90}q\u{9C}", x: 0, y: 0)
    grid.put("\u{1B}P1$r\u{1B}\\\u{1B}]52;c;SGVsbG8=\u{07}", x: 0, y: 1)
    let output = grid.ansiDiff(from: nil, colorMode: .truecolor)
    #expect(TerminalBytes.onlyCursorAndStyle(output), "\(output.debugDescription)")
  }
}
