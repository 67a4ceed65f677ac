import FocusEngine
import TerminalUI

// MARK: - Drawing items

extension TerminalRenderer {
  /// The border glyphs of a box: corners top-left, top-right, bottom-left, bottom-right,
  /// then horizontal and vertical.
  struct Border {
    let topLeft: Character
    let topRight: Character
    let bottomLeft: Character
    let bottomRight: Character
    let horizontal: Character
    let vertical: Character

    static let light = Border(
      topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─",
      vertical: "│")
    static let double = Border(
      topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝", horizontal: "═",
      vertical: "║")
    static let dotted = Border(
      topLeft: "·", topRight: "·", bottomLeft: "·", bottomRight: "·", horizontal: "·",
      vertical: "·")
  }

  /// Colours and attributes of each part of the screen.
  enum Palette {
    static let titleBar = Style(
      foreground: RGB(240, 240, 240), background: RGB(28, 56, 104), bold: true)
    static let status = Style(foreground: RGB(250, 250, 250), background: RGB(48, 48, 48))
    static let hint = Style(foreground: RGB(150, 150, 150), dim: true)
    static let warning = Style(foreground: RGB(255, 200, 0), bold: true)
    static let unfocusedBorder = Style(foreground: RGB(140, 140, 140))
    static let unfocusedTitle = Style(foreground: RGB(220, 220, 220))
    static let focusedBorder = Style(
      foreground: RGB(255, 255, 255), background: RGB(36, 92, 170), bold: true)
    static let focusedFill = Style(foreground: RGB(255, 255, 255), background: RGB(36, 92, 170))
    static let focusedTitle = Style(
      foreground: RGB(255, 255, 255), background: RGB(36, 92, 170), bold: true)
    static let shadow = Style(foreground: RGB(80, 80, 80), dim: true)
    static let selectedBorder = Style(foreground: RGB(235, 80, 150))
    static let selectedTitle = Style(foreground: RGB(255, 110, 170), bold: true)
    static let unavailable = Style(foreground: RGB(100, 100, 100), dim: true)
    static let heading = Style(foreground: RGB(235, 235, 235), bold: true)
  }

  /// Draws one item in its state. A partly hidden one is drawn whole (its `box` may reach past
  /// the grid) on a scratch grid, then what lies inside `clip` is copied onto `grid`; cells
  /// the item does not draw are left as they were.
  static func drawClipped(
    _ item: Item, _ state: FocusDisplayState, _ box: CellRect, clip: CellRect,
    in grid: inout CellGrid, colorMode: ColorMode, parallax: Parallax? = nil
  ) {
    if box.intersection(clip) == box {
      // Wholly visible: drawn in place, its lift kept inside the clip.
      drawItem(
        item, state, box, in: &grid, content: clip, colorMode: colorMode, parallax: parallax)
      return
    }
    // Room for the focused card's lift (one cell around) and its shadow (one more).
    let origin = (x: box.x - 1, y: box.y - 1)
    let transparent = Cell(marker: "\u{0}")
    var scratch = CellGrid(columns: box.width + 3, rows: box.height + 3, fill: transparent)
    let local = CellRect(x: 1, y: 1, width: box.width, height: box.height)
    drawItem(
      item, state, local, in: &scratch, content: scratch.bounds, colorMode: colorMode,
      parallax: parallax)
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

  /// Draws one item in its state.
  static func drawItem(
    _ item: Item, _ state: FocusDisplayState, _ box: CellRect, in grid: inout CellGrid,
    content: CellRect, colorMode: ColorMode, parallax: Parallax? = nil
  ) {
    switch state {
    case .focused, .highlighted:
      if let effect = item.focusEffect, effect != .lift {
        drawFocusEffect(
          effect, item, state, box, in: &grid, content: content, colorMode: colorMode)
        return
      }
      let grown = box.inset(by: -1).intersection(content)
      // The shadow sits one cell right of and below the lifted box.
      let shadowStyle = Palette.shadow
      let right = CellRect(x: grown.maxX, y: grown.y + 1, width: 1, height: grown.height)
      let bottom = CellRect(x: grown.x + 1, y: grown.maxY, width: grown.width, height: 1)
      grid.fill(right.intersection(content), character: "▒", style: shadowStyle)
      grid.fill(bottom.intersection(content), character: "▒", style: shadowStyle)
      grid.fill(grown, style: Palette.focusedFill)
      drawBox(
        grown, border: .double, borderStyle: Palette.focusedBorder, title: item.title,
        titleStyle: Palette.focusedTitle, in: &grid,
        titleOffset: parallax?.item == item.id ? parallaxOffset(parallax) : (0, 0))
      if state == .highlighted { grid.restyle(grown) { $0.inverse = true } }
    case .selected:
      var titleStyle = Palette.selectedTitle
      if colorMode == .monochrome { titleStyle.underline = true }
      drawBox(
        box, border: .light, borderStyle: Palette.selectedBorder, title: "♥ " + item.title,
        titleStyle: titleStyle, in: &grid)
    case .unavailable:
      drawBox(
        box, border: .dotted, borderStyle: Palette.unavailable, title: item.title,
        titleStyle: Palette.unavailable, in: &grid)
    case .unfocused:
      drawBox(
        box, border: .light, borderStyle: Palette.unfocusedBorder, title: item.title,
        titleStyle: Palette.unfocusedTitle, in: &grid)
    }
  }

  /// Draws a bordered box with `title` centred on its middle row, truncated with `…` to fit.
  /// Boxes two rows high carry the title in their top border; one row high, between two
  /// vertical border glyphs.
  static func drawBox(
    _ box: CellRect, border: Border, borderStyle: Style, title: String, titleStyle: Style,
    in grid: inout CellGrid, titleOffset: (x: Int, y: Int) = (0, 0)
  ) {
    guard !box.isEmpty else { return }
    let left = box.x
    let right = box.maxX - 1
    let top = box.y
    let bottom = box.maxY - 1
    if box.height == 1 {
      grid[left, top] = Cell(border.vertical, style: borderStyle)
      if right > left { grid[right, top] = Cell(border.vertical, style: borderStyle) }
    } else {
      for x in left...right {
        let isLeft = x == left
        let isRight = x == right
        grid[x, top] = Cell(
          isLeft ? border.topLeft : isRight ? border.topRight : border.horizontal,
          style: borderStyle)
        grid[x, bottom] = Cell(
          isLeft ? border.bottomLeft : isRight ? border.bottomRight : border.horizontal,
          style: borderStyle)
      }
      if box.height > 2 {
        for y in (top + 1)..<bottom {
          grid[left, y] = Cell(border.vertical, style: borderStyle)
          if right > left { grid[right, y] = Cell(border.vertical, style: borderStyle) }
        }
      }
    }
    let room = box.width - 2
    guard room > 0 else { return }
    let shown = truncated(title, to: room)
    let shownWidth = TerminalText.width(shown)
    var row = box.height >= 3 ? top + (box.height - 1) / 2 : top
    var column = left + 1 + (room - shownWidth) / 2
    // The parallax shift, only where it keeps the title inside the border.
    if box.height >= 5 { row = min(bottom - 1, max(top + 1, row + titleOffset.y)) }
    if room - shownWidth >= 2 {
      column = min(right - shownWidth, max(left + 1, column + titleOffset.x))
    }
    grid.put(shown, x: column, y: row, style: titleStyle)
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
