import Colour
import FocusEngine
import ScreenCore
import TerminalUI

// MARK: - The iPadOS focus effects: halo and highlight

extension TerminalRenderer {
  /// The accent colour of the halo and of highlighted text.
  static let accent = RGB(90, 170, 255)
  /// The halo: a bold outline in the accent colour.
  static let haloStyle = Style(foreground: accent, bold: true)
  /// Highlighted text: bold, in the accent colour.
  static let accentTitle = Style(foreground: accent, bold: true)

  /// A halo with rounded corners, for items whose shape has a corner radius.
  static let roundedHalo = Border(
    topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯", horizontal: "─",
    vertical: "│")
  /// A halo with square corners: heavy lines, so it stays distinct without colour.
  static let squareHalo = Border(
    topLeft: "┏", topRight: "┓", bottomLeft: "┗", bottomRight: "┛", horizontal: "━",
    vertical: "┃")

  /// Draws a focused (or highlighted) item whose focus effect is not the tvOS lift. Neither
  /// grows the item or casts a shadow:
  /// - halo: the item's plain box inside an accent outline one cell around it (where the
  ///   content area allows), with rounded corners when the item has a `cornerRadius`;
  /// - highlight: the item's plain box with its title in the accent colour, bold (underlined
  ///   in monochrome).
  /// Pressed (highlighted state), either is shown in inverse video, like the lift.
  static func drawFocusEffect(
    _ effect: FocusEffectStyle, _ item: Item, _ state: FocusDisplayState, _ box: CellRect,
    in grid: inout CellGrid, content: CellRect, look: Look
  ) {
    let palette = look.palette
    var drawn = box
    switch effect {
    case .halo, .lift:  // The lift never comes here (drawItem draws it).
      let ring = box.inset(by: -1)
      let border = (item.cornerRadius ?? 0) > 0 ? roundedHalo : squareHalo
      drawRing(ring, border: border, clip: content, in: &grid)
      drawBox(
        box, border: .light, borderStyle: palette.unfocusedBorder, title: item.title,
        titleStyle: palette.unfocusedTitle, in: &grid, wraps: look.wrapsTitles,
        content: item.content)
      drawn = ring.intersection(content)
    case .highlight:
      var titleStyle = accentTitle
      if look.colorMode == .monochrome { titleStyle.underline = true }
      drawBox(
        box, border: .light, borderStyle: palette.unfocusedBorder, title: item.title,
        titleStyle: titleStyle, in: &grid, wraps: look.wrapsTitles, content: item.content)
    }
    if state == .highlighted { grid.restyle(drawn) { $0.inverse = true } }
  }

  /// The outline of `ring`, only the cells inside `clip`.
  private static func drawRing(
    _ ring: CellRect, border: Border, clip: CellRect, in grid: inout CellGrid
  ) {
    guard ring.width >= 2, ring.height >= 2 else { return }
    func put(_ x: Int, _ y: Int, _ glyph: Character) {
      guard x >= clip.x, x < clip.maxX, y >= clip.y, y < clip.maxY else { return }
      grid[x, y] = Cell(glyph, style: haloStyle)
    }
    let (left, right, top, bottom) = (ring.x, ring.maxX - 1, ring.y, ring.maxY - 1)
    for x in (left + 1)..<right {
      put(x, top, border.horizontal)
      put(x, bottom, border.horizontal)
    }
    for y in (top + 1)..<bottom {
      put(left, y, border.vertical)
      put(right, y, border.vertical)
    }
    put(left, top, border.topLeft)
    put(right, top, border.topRight)
    put(left, bottom, border.bottomLeft)
    put(right, bottom, border.bottomRight)
  }
}

// MARK: - The pointer

extension TerminalRenderer {
  /// The pointer's cell marker: an I-beam (`I`) over a text field, a dot otherwise.
  static func pointerGlyph(_ shape: String) -> Character {
    shape == PointerShape.iBeam ? "I" : "●"
  }

  /// Draws the visible pointer as one accent-coloured cell at its (magnetised) position,
  /// scaled like the items and kept inside the content area.
  static func drawPointer(_ frame: ScreenFrame, content: CellRect, in grid: inout CellGrid) {
    guard let pointer = frame.pointer, pointer.visible, content.width > 0, content.height > 0
    else { return }
    let canvas = frame.layout.canvas
    guard canvas.width > 0, canvas.height > 0, pointer.position.x.isFinite,
      pointer.position.y.isFinite
    else { return }
    let column = Int(pointer.position.x / canvas.width * Double(content.width))
    let row = Int(pointer.position.y / canvas.height * Double(content.height))
    let x = content.x + min(max(column, 0), content.width - 1)
    let y = content.y + min(max(row, 0), content.height - 1)
    grid[x, y] = Cell(pointerGlyph(pointer.shape), style: Style(foreground: accent, bold: true))
  }
}
