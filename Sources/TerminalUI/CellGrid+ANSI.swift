extension CellGrid {
  /// The escape sequences that turn a terminal showing `previous` into one showing this grid.
  ///
  /// With no previous grid, or one of another size, every cell is painted, row by row. Else
  /// only changed cells are written: runs of changes within a row, each preceded by a cursor
  /// move (`ESC[row;colH`, 1-based) unless the cursor already stands there; a gap of a few
  /// unchanged cells inside a row is rewritten rather than jumped over when that is shorter
  /// than the move. A style sequence (``Style/sgr(_:)``) is written before a cell only when
  /// its encoded style differs from the last one written; the style the terminal is left in
  /// is never assumed, so each diff starts by setting one. Equal grids give the empty string.
  ///
  /// O(columns × rows) time and the output's size in memory.
  public func ansiDiff(from previous: CellGrid?, colorMode: ColorMode) -> String {
    var writer = ANSIWriter(colorMode: colorMode, columns: columns)
    guard let previous, previous.columns == columns, previous.rows == rows else {
      for y in 0..<rows {
        writer.moveTo(x: 0, y: y)
        for x in 0..<columns where !cells[y * columns + x].isContinuation {
          writer.emit(cells[y * columns + x], x: x)
        }
      }
      writer.finish()
      return writer.output
    }
    for y in 0..<rows {
      let start = y * columns
      var x = 0
      while x < columns {
        guard cells[start + x] != previous.cells[start + x] else {
          x += 1
          continue
        }
        // A changed continuation is redrawn by its wide character, one column back.
        if cells[start + x].isContinuation, x > 0, cells[start + x - 1].width == 2 { x -= 1 }
        writer.reach(x: x, y: y, row: cells[start..<(start + columns)])
        writer.emit(cells[start + x], x: x)
        x += max(1, cells[start + x].width)
      }
    }
    writer.finish()
    return writer.output
  }
}

/// Accumulates escape sequences while tracking the cursor and the last style written.
struct ANSIWriter {
  let colorMode: ColorMode
  let columns: Int
  var output = ""
  /// Where the next character would land, if known.
  var cursor: (x: Int, y: Int)?
  /// The last style sequence written in this diff.
  var currentSGR: String?
  var sgrCache: [Style: String] = [:]

  init(colorMode: ColorMode, columns: Int) {
    self.colorMode = colorMode
    self.columns = columns
  }

  mutating func moveTo(x: Int, y: Int) {
    output += "\u{1B}[\(y + 1);\(x + 1)H"
    cursor = (x, y)
  }

  /// Puts the cursor at (`x`, `y`): rewrites the unchanged cells between the cursor and `x`
  /// if it stands earlier on the same row and that is shorter than a move, else moves.
  mutating func reach(x: Int, y: Int, row: ArraySlice<Cell>) {
    if let cursor, cursor.y == y, cursor.x == x { return }
    let move = "\u{1B}[\(y + 1);\(x + 1)H"
    if let cursor, cursor.y == y, cursor.x < x, x - cursor.x <= move.utf8.count {
      let gap = row[(row.startIndex + cursor.x)..<(row.startIndex + x)]
      var sameStyle = true
      var bytes = 0
      for cell in gap where !cell.isContinuation {
        bytes += cell.character.utf8.count
        if sgr(cell.style) != currentSGR { sameStyle = false }
      }
      // A gap that starts on a continuation cannot be rewritten from its middle.
      if sameStyle && bytes < move.utf8.count && gap.first?.isContinuation != true {
        for cell in gap where !cell.isContinuation { output.append(cell.character) }
        self.cursor = (x, y)
        return
      }
    }
    output += move
    cursor = (x, y)
  }

  mutating func emit(_ cell: Cell, x: Int) {
    let sequence = sgr(cell.style)
    if sequence != currentSGR {
      output += sequence
      currentSGR = sequence
    }
    output.append(cell.character)
    // After the last column the cursor waits to wrap; where it is then is terminal-specific.
    let width = max(1, cell.width)
    if x + width >= columns {
      cursor = nil
    } else if let position = cursor {
      cursor = (position.x + width, position.y)
    }
  }

  mutating func sgr(_ style: Style) -> String {
    if let cached = sgrCache[style] { return cached }
    let sequence = style.sgr(colorMode)
    sgrCache[style] = sequence
    return sequence
  }

  /// Leaves the terminal in plain style after a non-empty diff.
  mutating func finish() {
    if currentSGR != nil && currentSGR != Style.plain.sgr(colorMode) {
      output += Style.plain.sgr(colorMode)
    }
  }
}
