import Colour
import FocusEngine
import ScreenCore
import TerminalUI

// MARK: - Drawing items

extension TerminalRenderer {
  /// The border glyphs of a box: corners top-left, top-right, bottom-left, bottom-right,
  /// then the top and bottom edges and the left and right ones.
  struct Border: Sendable, Equatable {
    let topLeft: Character
    let topRight: Character
    let bottomLeft: Character
    let bottomRight: Character
    let horizontal: Character
    let vertical: Character
    let bottomEdge: Character
    let rightEdge: Character

    init(
      topLeft: Character, topRight: Character, bottomLeft: Character, bottomRight: Character,
      horizontal: Character, vertical: Character, bottomEdge: Character? = nil,
      rightEdge: Character? = nil
    ) {
      self.topLeft = topLeft
      self.topRight = topRight
      self.bottomLeft = bottomLeft
      self.bottomRight = bottomRight
      self.horizontal = horizontal
      self.vertical = vertical
      self.bottomEdge = bottomEdge ?? horizontal
      self.rightEdge = rightEdge ?? vertical
    }

    static let light = Border(
      topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─",
      vertical: "│")
    static let double = Border(
      topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝", horizontal: "═",
      vertical: "║")
    static let dotted = Border(
      topLeft: "·", topRight: "·", bottomLeft: "·", bottomRight: "·", horizontal: "·",
      vertical: "·")
    /// Half blocks: a ring half a cell thick on every side (the high-contrast focus ring).
    static let thick = Border(
      topLeft: "▛", topRight: "▜", bottomLeft: "▙", bottomRight: "▟", horizontal: "▀",
      vertical: "▌", bottomEdge: "▄", rightEdge: "▐")
  }

  /// How items are drawn on one screen: the palette, the colour mode and whether titles wrap.
  struct Look {
    var palette: TerminalPalette
    var colorMode: ColorMode
    /// Titles too wide for one line take the box's other rows (larger text, the modal).
    var wrapsTitles: Bool
  }

  /// Draws one item in its state. A partly hidden one is drawn whole (its `box` may reach past
  /// the grid) on a scratch grid, then what lies inside `clip` is copied onto `grid`; cells
  /// the item does not draw are left as they were.
  static func drawClipped(
    _ item: Item, _ state: FocusDisplayState, _ box: CellRect, clip: CellRect,
    in grid: inout CellGrid, look: Look, parallax: Parallax? = nil, keepClear: [CellRect] = []
  ) {
    if box.intersection(clip) == box {
      // Wholly visible: drawn in place, its lift kept inside the clip.
      drawItem(
        item, state, box, in: &grid, content: clip, look: look, parallax: parallax,
        keepClear: keepClear)
      return
    }
    // Room for the focused card's lift (one cell around) and its shadow (one more).
    let origin = (x: box.x - 1, y: box.y - 1)
    let transparent = Cell(marker: "\u{0}")
    var scratch = CellGrid(columns: box.width + 3, rows: box.height + 3, fill: transparent)
    let local = CellRect(x: 1, y: 1, width: box.width, height: box.height)
    let shifted = keepClear.map {
      CellRect(x: $0.x - origin.x, y: $0.y - origin.y, width: $0.width, height: $0.height)
    }
    drawItem(
      item, state, local, in: &scratch, content: scratch.bounds, look: look, parallax: parallax,
      keepClear: shifted)
    let area = CellRect(
      x: origin.x, y: origin.y, width: scratch.columns, height: scratch.rows
    ).intersection(clip).intersection(grid.bounds)
    guard !area.isEmpty else { return }
    for y in area.y..<area.maxY {
      for x in area.x..<area.maxX {
        let cell = scratch[x - origin.x, y - origin.y]
        guard cell != transparent else { continue }
        // A wide character whose right half the clip cuts shows as a space (the grid blanks
        // a continuation whose left half was cut).
        grid[x, y] = cell.width == 2 && x + 1 >= area.maxX ? Cell(" ", style: cell.style) : cell
      }
    }
  }

  /// Draws one item in its state. A focused card's lift and shadow never cover a cell of
  /// `keepClear` (the row headings' text): it grows only where that leaves them whole.
  static func drawItem(
    _ item: Item, _ state: FocusDisplayState, _ box: CellRect, in grid: inout CellGrid,
    content: CellRect, look: Look, parallax: Parallax? = nil, keepClear: [CellRect] = []
  ) {
    let palette = look.palette
    switch state {
    case .focused, .highlighted:
      if let effect = item.focusEffect, effect != .lift {
        drawFocusEffect(effect, item, state, box, in: &grid, content: content, look: look)
        return
      }
      let grown = lifted(box, content: content, keepClear: keepClear)
      // The shadow sits one cell right of and below the lifted box.
      if let shadowStyle = palette.shadow {
        let right = CellRect(x: grown.maxX, y: grown.y + 1, width: 1, height: grown.height)
        let bottom = CellRect(x: grown.x + 1, y: grown.maxY, width: grown.width, height: 1)
        for part in [right, bottom] {
          let shown = part.intersection(content)
          guard !shown.isEmpty else { continue }
          for y in shown.y..<shown.maxY {
            for x in shown.x..<shown.maxX
            where !keepClear.contains(where: { $0.contains(x: x, y: y) }) {
              grid[x, y] = Cell("▒", style: shadowStyle)
            }
          }
        }
      }
      grid.fill(grown, style: palette.focusedFill)
      drawBox(
        grown, border: palette.focusRing, borderStyle: palette.focusedBorder, title: item.title,
        titleStyle: palette.focusedTitle, in: &grid,
        titleOffset: parallax?.item == item.id ? parallaxOffset(parallax) : (0, 0),
        wraps: look.wrapsTitles, content: item.content)
      if state == .highlighted { grid.restyle(grown) { $0.inverse = true } }
    case .selected:
      var titleStyle = palette.selectedTitle
      if look.colorMode == .monochrome { titleStyle.underline = true }
      drawBox(
        box, border: .light, borderStyle: palette.selectedBorder, title: "♥ " + item.title,
        titleStyle: titleStyle, in: &grid, wraps: look.wrapsTitles, content: item.content)
    case .unavailable:
      // Without colour, dim is what tells it apart from the unfocused look.
      var border = palette.unavailableBorder
      var title = palette.unavailableTitle
      if look.colorMode == .monochrome && !palette.paintsBackground {
        border.dim = true
        title.dim = true
      }
      drawBox(
        box, border: .dotted, borderStyle: border, title: item.title, titleStyle: title,
        in: &grid, wraps: look.wrapsTitles, content: item.content)
    case .unfocused:
      drawBox(
        box, border: .light, borderStyle: accented(palette.unfocusedBorder, item, look: look),
        title: item.title, titleStyle: palette.unfocusedTitle, in: &grid,
        wraps: look.wrapsTitles, content: item.content)
    }
  }

  /// The focused card grown by a cell on each side, inside `content`, except towards a row of
  /// `keepClear` it would cover (a heading just above or below keeps its text).
  static func lifted(_ box: CellRect, content: CellRect, keepClear: [CellRect]) -> CellRect {
    var grown = box.inset(by: -1).intersection(content)
    func covers(row: Int) -> Bool {
      let line = CellRect(x: grown.x, y: row, width: grown.width, height: 1)
      return keepClear.contains { !$0.intersection(line).isEmpty }
    }
    if grown.height > 0, grown.y < box.y, covers(row: grown.y) {
      grown.y += 1
      grown.height -= 1
    }
    if grown.height > 0, grown.maxY > box.maxY, covers(row: grown.maxY - 1) {
      grown.height -= 1
    }
    return grown
  }

  /// An unfocused card's border in the item's accent colour (the colour mode maps it to the
  /// nearest xterm-256 colour, or sends it as truecolor); unchanged in high contrast and
  /// without colour, where the palette alone tells the states apart.
  static func accented(_ style: Style, _ item: Item, look: Look) -> Style {
    guard let rgb = item.content.accentRGB, !look.palette.paintsBackground,
      look.colorMode != .monochrome
    else { return style }
    var accented = style
    accented.foreground = RGB(rgb.red, rgb.green, rgb.blue)
    return accented
  }

  /// Draws a bordered box with `title` centred on its middle row, truncated with `…` to fit.
  /// Boxes two rows high carry the title in their top border; one row high, between two
  /// vertical border glyphs. From `content`, a box four rows high or more shows the subtitle
  /// on the line under the title (not bold), a box three rows high or more the badge as
  /// `[Badge]` on its top border at the right, and the body wrapped on the rows left under
  /// them (the title then goes to the top); all filtered and cut like the title.
  static func drawBox(
    _ box: CellRect, border: Border, borderStyle: Style, title: String, titleStyle: Style,
    in grid: inout CellGrid, titleOffset: (x: Int, y: Int) = (0, 0), wraps: Bool = false,
    content: ItemContent = ItemContent()
  ) {
    guard !box.isEmpty else { return }
    drawBorder(box, border: border, style: borderStyle, in: &grid)
    drawText(
      box, title: title, titleStyle: titleStyle, in: &grid, titleOffset: titleOffset,
      wraps: wraps, content: content)
  }

  /// The border of `box` (one row high: two vertical glyphs).
  private static func drawBorder(
    _ box: CellRect, border: Border, style: Style, in grid: inout CellGrid
  ) {
    let left = box.x
    let right = box.maxX - 1
    let top = box.y
    let bottom = box.maxY - 1
    if box.height == 1 {
      grid[left, top] = Cell(border.vertical, style: style)
      if right > left { grid[right, top] = Cell(border.rightEdge, style: style) }
      return
    }
    for x in left...right {
      let isLeft = x == left
      let isRight = x == right
      grid[x, top] = Cell(
        isLeft ? border.topLeft : isRight ? border.topRight : border.horizontal, style: style)
      grid[x, bottom] = Cell(
        isLeft ? border.bottomLeft : isRight ? border.bottomRight : border.bottomEdge,
        style: style)
    }
    guard box.height > 2 else { return }
    for y in (top + 1)..<bottom {
      grid[left, y] = Cell(border.vertical, style: style)
      if right > left { grid[right, y] = Cell(border.rightEdge, style: style) }
    }
  }

  /// The title, subtitle, body and badge of a box whose border is drawn (see `drawBox`).
  private static func drawText(
    _ box: CellRect, title: String, titleStyle: Style, in grid: inout CellGrid,
    titleOffset: (x: Int, y: Int), wraps: Bool, content: ItemContent
  ) {
    let left = box.x
    let right = box.maxX - 1
    let top = box.y
    let bottom = box.maxY - 1
    let room = box.width - 2
    guard room > 0 else { return }
    let inner = box.height - 2
    let subtitle = content.subtitle.flatMap { $0.isEmpty || box.height < 4 ? nil : $0 }
    let reserved = subtitle == nil ? 0 : 1
    // The body needs a row of its own under the title and subtitle.
    let body = content.body.flatMap { $0.isEmpty || inner < 2 + reserved ? nil : $0 }
    let titleRows = !wraps ? 1 : body == nil ? inner - reserved : min(2, inner - reserved - 1)
    let lines = titleLines(title, room: room, rows: titleRows)
    let widest = lines.map(TerminalText.width).max() ?? 0
    let block = lines.count + reserved
    var row = box.height >= 3 ? top + 1 + (inner - block) / 2 : top
    if body != nil { row = top + 1 }
    // The parallax shift, only where it keeps the title inside the border.
    if box.height >= 5 && lines.count == 1 && subtitle == nil && body == nil {
      row = min(bottom - 1, max(top + 1, row + titleOffset.y))
    }
    for (index, line) in lines.enumerated() {
      let shownWidth = TerminalText.width(line)
      var column = left + 1 + (room - shownWidth) / 2
      if room - widest >= 2 {
        column = min(right - shownWidth, max(left + 1, column + titleOffset.x))
      }
      grid.put(line, x: column, y: row + index, style: titleStyle)
    }
    var plain = titleStyle
    plain.bold = false
    if let subtitle {
      let line = truncated(subtitle, to: room)
      grid.put(
        line, x: left + 1 + (room - TerminalText.width(line)) / 2, y: row + lines.count,
        style: plain)
    }
    if let body {
      // A blank row under the title where the box has rows to spare, a column of margin.
      let first = row + block + (inner - block >= 4 ? 1 : 0)
      let margin = room >= 8 ? 1 : 0
      for (index, line) in bodyLines(body, room: room - 2 * margin, rows: bottom - first)
        .enumerated()
      {
        grid.put(line, x: left + 1 + margin, y: first + index, style: plain)
      }
    }
    if let badge = content.badge, !badge.isEmpty, box.height >= 3, room >= 6 {
      let tag = "[" + truncated(badge, to: room - 4) + "]"
      grid.put(tag, x: right - 1 - TerminalText.width(tag), y: top, style: titleStyle)
    }
  }

  /// An item's body on at most `rows` lines of `room` columns: each paragraph (a line break
  /// in the text starts one) broken at spaces as titles are, a word too long for a line cut;
  /// the last line ends in `…` when text is left over.
  static func bodyLines(_ body: String, room: Int, rows: Int) -> [String] {
    guard rows > 0, room > 0 else { return [] }
    var lines: [String] = []
    for paragraph in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      guard lines.count < rows else {
        if let last = lines.popLast() {
          let kept = truncated(last, to: room - 1)
          lines.append(kept.hasSuffix("…") ? kept : kept + "…")
        }
        break
      }
      lines += titleLines(String(paragraph), room: room, rows: rows - lines.count)
    }
    return lines
  }

  /// `title` on at most `rows` lines of `room` columns: one line cut with `…` when it does not
  /// fit or `rows` is 1; else broken at spaces, a word too long for a line cut, and the last
  /// line ending in `…` when words are left over.
  static func titleLines(_ title: String, room: Int, rows: Int) -> [String] {
    guard rows >= 2, TerminalText.width(title) > room else { return [truncated(title, to: room)] }
    let words = title.split(separator: " ").map(String.init)
    var lines: [String] = []
    var current = ""
    var index = 0
    while index < words.count && lines.count < rows {
      let candidate = current.isEmpty ? words[index] : current + " " + words[index]
      if TerminalText.width(candidate) <= room {
        current = candidate
        index += 1
      } else if current.isEmpty {
        lines.append(truncated(words[index], to: room))
        index += 1
      } else {
        lines.append(current)
        current = ""
      }
    }
    if !current.isEmpty { lines.append(current) }
    if index < words.count, let last = lines.popLast() {
      lines.append(truncated(([last] + words[index...]).joined(separator: " "), to: room))
    }
    return lines.isEmpty ? [truncated(title, to: room)] : lines
  }

  /// The focused card's content shift for its tilt: one cell towards the tilt past 1.5°.
  static func parallaxOffset(_ parallax: Parallax?) -> (x: Int, y: Int) {
    guard let parallax else { return (0, 0) }
    func step(_ degrees: Double) -> Int { degrees > 1.5 ? 1 : degrees < -1.5 ? -1 : 0 }
    return (step(parallax.rotateY), step(-parallax.rotateX))
  }

  /// `text` cut to `width` columns at a glyph boundary, ending in `…` when cut
  /// (``TerminalText/truncated(_:toWidth:)``: a wide character counts two columns).
  static func truncated(_ text: String, to width: Int) -> String {
    TerminalText.truncated(text, toWidth: width)
  }
}
