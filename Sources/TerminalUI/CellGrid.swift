/// A terminal screen as data: `columns × rows` cells, drawn into by pure code and turned into
/// escape sequences by ``ansiDiff(from:colorMode:)``.
///
/// Text is measured in columns, not characters (``TerminalText``): a wide character (CJK,
/// most emoji) takes two cells, its own and a continuation, so what follows it on the row
/// stays in its column; combining marks take none. Writing over either half of a wide
/// character blanks the other half, and a wide character that would not fit (the last column,
/// a clip edge) is drawn as a space: a row is always exactly `columns` columns wide.
///
/// TenFoot draws its terminal UI with this small hand-written layer because the package
/// mirror it builds from offers no terminal library (no ncurses binding, no TUI framework;
/// only packages such as swift-argument-parser, swift-log, swift-protobuf, swift-nio,
/// hummingbird and swift-collections), and linking ncurses through a system-library target
/// would buy little: the renderer needs a cell buffer, a diff and a handful of sequences.
public struct CellGrid: Sendable, Hashable {
  /// Width in cells.
  public let columns: Int
  /// Height in cells.
  public let rows: Int
  /// The cells, row by row.
  public private(set) var cells: [Cell]

  /// A grid of `columns × rows` cells, all `fill`.
  public init(columns: Int, rows: Int, fill: Cell = .blank) {
    self.columns = max(0, columns)
    self.rows = max(0, rows)
    cells = Array(repeating: fill, count: self.columns * self.rows)
  }

  /// The whole grid as a rectangle.
  public var bounds: CellRect { CellRect(x: 0, y: 0, width: columns, height: rows) }

  /// Whether (`x`, `y`) lies on the grid.
  public func contains(x: Int, y: Int) -> Bool { x >= 0 && y >= 0 && x < columns && y < rows }

  /// The cell at column `x`, row `y`. Reading off the grid gives a blank cell; writing off the
  /// grid is ignored (clipping). Writing a wide cell also writes its continuation to the right
  /// (a space if it does not fit); writing a continuation alone writes a space.
  public subscript(x: Int, y: Int) -> Cell {
    get { contains(x: x, y: y) ? cells[y * columns + x] : .blank }
    set {
      guard contains(x: x, y: y) else { return }
      if newValue.isContinuation {
        // Kept only as the right half of the wide character it belongs to.
        if x > 0, cells[y * columns + x - 1].width == 2 {
          cells[y * columns + x] = .continuation(style: newValue.style)
        } else {
          store(Cell(" ", style: newValue.style), x: x, y: y)
        }
      } else {
        store(newValue, x: x, y: y)
      }
    }
  }

  /// Writes `cell` at (`x`, `y`), on the grid, keeping wide characters whole: a half it
  /// overwrites loses its other half to a space, and a wide cell that does not fit is a space.
  private mutating func store(_ cell: Cell, x: Int, y: Int) {
    var cell = cell
    if cell.width == 2 && x + 1 >= columns { cell = Cell(" ", style: cell.style) }
    unpair(x: x, y: y)
    if cell.width == 2 { unpair(x: x + 1, y: y) }
    cells[y * columns + x] = cell
    if cell.width == 2 { cells[y * columns + x + 1] = .continuation(style: cell.style) }
  }

  /// Before (`x`, `y`) is overwritten: blanks the other half of a wide character there.
  private mutating func unpair(x: Int, y: Int) {
    let index = y * columns + x
    switch cells[index].width {
    case 0 where x > 0:
      cells[index - 1] = Cell(" ", style: cells[index - 1].style)
    case 2 where x + 1 < columns:
      cells[index + 1] = Cell(" ", style: cells[index + 1].style)
    default: break
    }
  }

  /// Writes `string` from column `x` of row `y`, glyph by glyph (``TerminalText/glyphs(_:)``:
  /// controls show as `�`, a wide glyph takes two cells), clipped to the grid (a negative `x`
  /// drops the leading columns; a wide glyph cut by an edge becomes a space). Returns the
  /// column after the last glyph, clipped or not.
  @discardableResult
  public mutating func put(_ string: String, x: Int, y: Int, style: Style = .plain) -> Int {
    let glyphs = TerminalText.glyphs(string)
    let end = x + glyphs.reduce(0) { $0 + $1.width }
    guard y >= 0 && y < rows else { return end }
    var column = x
    for glyph in glyphs {
      if column >= columns { return end }
      if column >= 0 {
        store(Cell(glyph: glyph, style: style), x: column, y: y)
      } else if column + glyph.width > 0 {
        store(Cell(" ", style: style), x: 0, y: y)  // The right half of a cut wide glyph.
      }
      column += glyph.width
    }
    return column
  }

  /// Sets every cell of `rect` (clipped) to `character` in `style`; a wide character fills
  /// as `�`.
  public mutating func fill(_ rect: CellRect, character: Character = " ", style: Style = .plain) {
    let area = rect.intersection(bounds)
    guard !area.isEmpty else { return }
    var cell = Cell(character, style: style)
    if cell.width != 1 { cell = Cell(TerminalText.replacement, style: style) }
    for y in area.y..<area.maxY {
      for x in area.x..<area.maxX { store(cell, x: x, y: y) }
    }
  }

  /// Changes the style of every cell of `rect` (clipped), keeping the characters.
  public mutating func restyle(_ rect: CellRect, _ change: (inout Style) -> Void) {
    let area = rect.intersection(bounds)
    guard !area.isEmpty else { return }
    for y in area.y..<area.maxY {
      for x in area.x..<area.maxX { change(&cells[y * columns + x].style) }
    }
  }

  /// Row `y` as plain text, trailing spaces kept: `columns` columns wide (a wide character
  /// counts two, its continuation cell adds nothing).
  public func rowText(_ y: Int) -> String {
    guard y >= 0 && y < rows else { return "" }
    var text = ""
    for cell in cells[(y * columns)..<((y + 1) * columns)] where !cell.isContinuation {
      text.append(cell.character)
    }
    return text
  }

  /// Every row as plain text with trailing spaces removed: the grid as a text snapshot.
  public func lines() -> [String] {
    (0..<rows).map { y in
      var line = rowText(y)
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}
