import ScreenCore
import TerminalUI

extension TerminalRenderer {
  /// Draws the pairing PIN in a double-bordered box in the middle of the grid:
  /// "Pair remote <name>", the PIN with spaced digits, and the broker key's fingerprint.
  static func drawPairing(
    _ overlay: PairingOverlay, in grid: inout CellGrid, palette: TerminalPalette = .normal
  ) {
    drawNotice(
      [
        "Pair remote \"\(overlay.remoteName)\"",
        "PIN  " + overlay.pin.map(String.init).joined(separator: " "),
        "broker key \(overlay.brokerFingerprint)",
      ], fallback: "PIN \(overlay.pin)", in: &grid, palette: palette)
  }

  /// The lines of the closed-pairing notice.
  static let pairingClosedLines = [
    "Pairing is closed: too many wrong PINs",
    "To open it at this screen, run on its host:",
    "tenfoot-screen pairing open",
    "(with this screen's --id and connection options)",
  ]

  /// Draws, in the PIN's box, that pairing closed after too many wrong PINs and how to open it
  /// at this screen.
  static func drawPairingClosed(in grid: inout CellGrid, palette: TerminalPalette = .normal) {
    drawNotice(pairingClosedLines, fallback: "pairing closed", in: &grid, palette: palette)
  }

  /// `lines` centred in a double-bordered box in the middle of the grid; `fallback` in the
  /// top-left corner when the grid is too small for a box.
  private static func drawNotice(
    _ lines: [String], fallback: String, in grid: inout CellGrid, palette: TerminalPalette
  ) {
    let width = min(grid.columns, (lines.map(TerminalText.width).max() ?? 0) + 6)
    let height = min(grid.rows, lines.count + 4)
    guard width >= 8, height >= 3 else {
      grid.put(fallback, x: 0, y: 0, style: palette.warning)
      return
    }
    let box = CellRect(
      x: (grid.columns - width) / 2, y: (grid.rows - height) / 2, width: width, height: height)
    grid.fill(box, style: palette.titleBar)
    drawBox(
      box, border: .double, borderStyle: palette.titleBar, title: "", titleStyle: palette.titleBar,
      in: &grid)
    for (index, line) in lines.enumerated() where index + 2 < height - 1 {
      let shown = truncated(line, to: width - 4)
      grid.put(
        shown, x: box.x + (width - TerminalText.width(shown)) / 2, y: box.y + 2 + index,
        style: palette.titleBar)
    }
  }
}
