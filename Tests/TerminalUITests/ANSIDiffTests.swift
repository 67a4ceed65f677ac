import Colour
import Testing

@testable import TerminalUI

@Suite("ANSI diff")
struct ANSIDiffTests {
  static let escape = "\u{1B}"

  static func sample() -> CellGrid {
    var grid = CellGrid(columns: 10, rows: 4)
    grid.put("TenFoot", x: 0, y: 0, style: Style(foreground: RGB(255, 255, 255), bold: true))
    grid.put("abc", x: 2, y: 2)
    grid.fill(CellRect(x: 6, y: 3, width: 3, height: 1), character: "▒", style: Style(dim: true))
    return grid
  }

  @Test("no previous grid paints every cell, row by row")
  func fullPaint() {
    let grid = Self.sample()
    let paint = grid.ansiDiff(from: nil, colorMode: .truecolor)
    for row in 1...4 { #expect(paint.contains("\(Self.escape)[\(row);1H")) }
    #expect(paint.contains("\(Self.escape)[0;1;38;2;255;255;255mTenFoot"))
    #expect(paint.contains("\(Self.escape)[0;2m▒▒▒"))
    #expect(paint.hasSuffix("\(Self.escape)[4;1H      \(Self.escape)[0;2m▒▒▒\(Self.escape)[0m "))
    // A different size also repaints fully.
    let other = CellGrid(columns: 9, rows: 4)
    #expect(grid.ansiDiff(from: other, colorMode: .truecolor) == paint)
  }

  @Test("identical grids give an empty diff")
  func identical() {
    let grid = Self.sample()
    #expect(grid.ansiDiff(from: grid, colorMode: .truecolor) == "")
    #expect(grid.ansiDiff(from: Self.sample(), colorMode: .monochrome) == "")
  }

  @Test("one changed cell is a cursor move, one style and that cell")
  func oneCell() {
    let before = Self.sample()
    var after = before
    after[5, 2] = Cell("x")
    let diff = after.ansiDiff(from: before, colorMode: .truecolor)
    #expect(diff == "\(Self.escape)[3;6H\(Self.escape)[0mx")
    #expect(diff.utf8.count == 6 + 4 + 1)

    var styled = before
    styled[0, 3] = Cell("!", style: Style(bold: true))
    let styledDiff = styled.ansiDiff(from: before, colorMode: .ansi256)
    #expect(styledDiff == "\(Self.escape)[4;1H\(Self.escape)[0;1m!\(Self.escape)[0m")
    #expect(styledDiff.utf8.count == 6 + 6 + 1 + 4)
  }

  @Test("a run of changes is written after one move; a short gap is rewritten, not jumped")
  func runs() {
    let before = CellGrid(columns: 20, rows: 2)
    var after = before
    after.put("ab", x: 3, y: 1)
    after.put("cd", x: 7, y: 1)  // two unchanged blanks between: cheaper to rewrite
    after.put("e", x: 18, y: 1)  // far away: a move
    let diff = after.ansiDiff(from: before, colorMode: .truecolor)
    #expect(diff == "\(Self.escape)[2;4H\(Self.escape)[0mab  cd\(Self.escape)[2;19He")
    print(
      "run diff: \(diff.utf8.count) bytes vs full paint \(after.ansiDiff(from: nil, colorMode: .truecolor).utf8.count)"
    )
  }

  @Test("style sequences are written only when the style changes")
  func styleChanges() {
    var grid = CellGrid(columns: 6, rows: 1)
    grid.put("aa", x: 0, y: 0, style: Style(bold: true))
    grid.put("bb", x: 2, y: 0, style: Style(bold: true))
    grid.put("cc", x: 4, y: 0)
    let paint = grid.ansiDiff(from: nil, colorMode: .monochrome)
    #expect(paint == "\(Self.escape)[1;1H\(Self.escape)[0;1maabb\(Self.escape)[0mcc")
  }

  @Test("monochrome has no colour sequences but keeps the attributes")
  func monochrome() {
    var grid = CellGrid(columns: 8, rows: 2)
    grid.put("a", x: 0, y: 0, style: Style(foreground: RGB(200, 10, 10), background: RGB(0, 0, 90)))
    grid.put("b", x: 1, y: 0, style: Style(foreground: RGB(10, 200, 10), bold: true))
    grid.put("c", x: 2, y: 0, style: Style(dim: true))
    grid.put("d", x: 3, y: 0, style: Style(inverse: true))
    grid.put("e", x: 4, y: 0, style: Style(underline: true))
    let paint = grid.ansiDiff(from: nil, colorMode: .monochrome)
    #expect(!paint.contains("38;"))
    #expect(!paint.contains("48;"))
    for attribute in ["[0;1m", "[0;2m", "[0;7m", "[0;4m"] { #expect(paint.contains(attribute)) }
    let colour = grid.ansiDiff(from: nil, colorMode: .ansi256)
    #expect(colour.contains("38;5;"))
    #expect(!colour.contains("38;2;"))
  }
}
