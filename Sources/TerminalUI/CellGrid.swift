/// A terminal screen as data: `columns × rows` cells, drawn into by pure code and turned into
/// escape sequences by ``ansiDiff(from:colorMode:)``.
///
/// Every `Character` is taken to be one column wide (box drawing, `▶`, `♥`, `▒` and Latin
/// text are). Double-width characters (CJK, most emoji) would shift the rest of their row on
/// a real terminal; the grid does not measure them.
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
  /// grid is ignored (clipping).
  public subscript(x: Int, y: Int) -> Cell {
    get { contains(x: x, y: y) ? cells[y * columns + x] : .blank }
    set { if contains(x: x, y: y) { cells[y * columns + x] = newValue } }
  }

  /// Writes `string` from column `x` of row `y`, one character per cell, clipped to the grid
  /// (a negative `x` drops the leading characters). Returns the column after the last
  /// character, clipped or not.
  @discardableResult
  public mutating func put(_ string: String, x: Int, y: Int, style: Style = .plain) -> Int {
    var column = x
    guard y >= 0 && y < rows else { return x + string.count }
    for character in string {
      if column >= columns { return x + string.count }
      if column >= 0 { cells[y * columns + column] = Cell(character, style: style) }
      column += 1
    }
    return column
  }

  /// Sets every cell of `rect` (clipped) to `character` in `style`.
  public mutating func fill(_ rect: CellRect, character: Character = " ", style: Style = .plain) {
    let area = rect.intersection(bounds)
    guard !area.isEmpty else { return }
    for y in area.y..<area.maxY {
      for x in area.x..<area.maxX { cells[y * columns + x] = Cell(character, style: style) }
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

  /// Row `y` as plain text, trailing spaces kept (every row is `columns` characters long).
  public func rowText(_ y: Int) -> String {
    guard y >= 0 && y < rows else { return "" }
    return String(cells[(y * columns)..<((y + 1) * columns)].map(\.character))
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
