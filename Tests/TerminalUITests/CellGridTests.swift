import Testing

@testable import TerminalUI

@Suite("Cell grid drawing")
struct CellGridTests {
  @Test("put writes one character per cell and clips at every edge")
  func putClips() {
    var grid = CellGrid(columns: 6, rows: 3)
    grid.put("hello world", x: 2, y: 0)
    grid.put("abc", x: -2, y: 1)
    grid.put("zzz", x: 0, y: 3)
    grid.put("yy", x: 0, y: -1)
    grid.put("é♥▒", x: 3, y: 2, style: Style(bold: true))
    #expect(grid.lines() == ["  hell", "c", "   é♥▒"])
    #expect(grid.rowText(1) == "c     ")
    #expect(grid[4, 2].character == "♥")
    #expect(grid[4, 2].style.bold)
    #expect(grid[9, 9] == .blank)
  }

  @Test("fill and restyle are clipped to the grid")
  func fillClips() {
    var grid = CellGrid(columns: 4, rows: 3)
    grid.fill(CellRect(x: 2, y: 1, width: 10, height: 10), character: "#", style: Style(dim: true))
    grid.restyle(CellRect(x: -5, y: 2, width: 6, height: 1)) { $0.inverse = true }
    #expect(grid.lines() == ["", "  ##", "  ##"])
    #expect(grid[0, 2].style.inverse && grid[0, 2].character == " ")
    #expect(!grid[1, 1].style.inverse)
    #expect(grid[3, 2].style == Style(dim: true))
    #expect(grid[2, 2].style == Style(dim: true))
  }

  @Test("an empty grid has no lines")
  func empty() {
    let grid = CellGrid(columns: 0, rows: 0)
    #expect(grid.lines().isEmpty)
    #expect(grid.ansiDiff(from: nil, colorMode: .truecolor).isEmpty)
  }
}
