import Colour
import Foundation
import QREncoder
import ScreenCore
import TerminalUI

extension TerminalRenderer {
  /// Modules of light margin around the code. The standard asks for 4; 2 keep the panel small
  /// on a terminal and are read by zbar and phone cameras alike (the panel's edge is light).
  static let phoneQuietZone = 2

  /// The phone remote's QR code in the top-right corner of the content area, with its URL
  /// underneath, two modules per cell from top to bottom in half blocks: a cell's character
  /// draws its *light* halves (`█` both, `▀` top, `▄` bottom, space neither) in white on a black
  /// background. So the code is dark on light in colour, and in monochrome too on the usual
  /// light-on-dark terminal (the characters carry it, not the colours). A terminal too small
  /// for the code shows the URL alone.
  static func drawPhoneCode(
    _ code: QRCode, url: String, in grid: inout CellGrid, content: CellRect
  ) {
    let light = Style(foreground: RGB(255, 255, 255), background: RGB(0, 0, 0))
    let side = code.size + 2 * phoneQuietZone
    let height = (side + 1) / 2
    let label = truncated(url, to: grid.columns)
    guard side <= content.width, height + 1 <= content.height else {
      grid.put(
        label, x: max(0, grid.columns - TerminalText.width(label)), y: content.y,
        style: light)
      return
    }
    let left = content.x + content.width - side
    let top = content.y
    // Not `QRCode.halfBlockLines()`, which draws the dark halves: without colours (NO_COLOR,
    // TERM=dumb) those come out light on a dark terminal, an inverted code many readers skip.
    func isLight(_ x: Int, _ y: Int) -> Bool { !code.isDark(x: x, y: y, border: phoneQuietZone) }
    for row in 0..<height {
      for column in 0..<side {
        let upper = isLight(column, 2 * row)
        let lower = isLight(column, 2 * row + 1)
        let character: Character =
          switch (upper, lower) {
          case (true, true): "█"
          case (true, false): "▀"
          case (false, true): "▄"
          case (false, false): " "
          }
        grid[left + column, top + row] = Cell(character, style: light)
      }
    }
    grid.put(
      label, x: max(0, content.x + content.width - TerminalText.width(label)), y: top + height,
      style: light)
  }
}
