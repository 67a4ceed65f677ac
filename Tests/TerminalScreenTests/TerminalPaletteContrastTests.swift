import Colour
import FocusEngine
import ScreenCore
import TerminalScreen
import TerminalUI
import TestSupport
import Testing

/// WCAG 2.x contrast ratios of every focus state, computed from the terminal's built-in
/// palettes (normal and high contrast): AA asks 4.5:1 for text and 3:1 for focus indicators
/// and other parts of the interface. The table this prints is the one in
/// docs/accessibility.md (with WebPaletteContrastTests').
@Suite("Terminal palette contrast (WCAG AA) for every focus state")
struct TerminalPaletteContrastTests {
  typealias Pair = ContrastPair

  /// The terminal's pairs: each state's title on its background, and the mark that shows the
  /// state (border, ring, fill) on what surrounds it.
  static func terminal(_ palette: TerminalPalette) -> [Pair] {
    func colors(_ style: Style) -> (RGB, RGB) { palette.shownColors(style) }
    var highlighted = palette.focusedTitle
    highlighted.inverse = true
    var highlightedRing = palette.focusedBorder
    highlightedRing.inverse = true
    let screen = palette.background
    let dialog = palette.dialog.background ?? screen
    var pairs: [Pair] = []
    func add(
      _ state: String, _ what: String, _ style: Style, on background: RGB? = nil, _ minimum: Double
    ) {
      let (foreground, own) = colors(style)
      pairs.append(
        Pair(
          state: state, what: what, foreground: foreground, background: background ?? own,
          minimum: minimum))
    }
    add("unfocused", "title", palette.unfocusedTitle, 4.5)
    add("unfocused", "border", palette.unfocusedBorder, 3)
    add("focused", "title", palette.focusedTitle, 4.5)
    add("focused", "ring", palette.focusedBorder, 3)
    let fill = colors(palette.focusedFill).1
    if fill != screen {
      pairs.append(
        Pair(
          state: "focused", what: "card on screen", foreground: fill, background: screen, minimum: 3
        ))
    }
    add("highlighted", "title", highlighted, 4.5)
    add("highlighted", "ring", highlightedRing, 3)
    add("selected", "title", palette.selectedTitle, 4.5)
    add("selected", "border", palette.selectedBorder, 3)
    add("unavailable", "title", palette.unavailableTitle, 4.5)
    add("unavailable", "border", palette.unavailableBorder, 3)
    add("heading", "text", palette.heading, 4.5)
    // In the modal's panel, cells without a background of their own show the panel's.
    add("unfocused in dialog", "title", palette.unfocusedTitle, on: dialog, 4.5)
    add("selected in dialog", "title", palette.selectedTitle, on: dialog, 4.5)
    add("unavailable in dialog", "title", palette.unavailableTitle, on: dialog, 4.5)
    add("status line", "text", palette.status, 4.5)
    return pairs
  }

  @Test("every focus state meets AA", arguments: [false, true])
  func meetsAA(highContrast: Bool) {
    let name = highContrast ? "terminal, high contrast" : "terminal, normal"
    let problems = ContrastPair.problems(Self.terminal(highContrast ? .high : .normal), named: name)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("high contrast: solid colours, no shadow, the modal clears what is under it")
  func highContrastShape() {
    let high = TerminalPalette.high
    for style in [
      high.unfocusedTitle, high.focusedTitle, high.selectedTitle, high.unavailableTitle,
    ] {
      #expect(!style.dim && style.background != nil)
    }
    #expect(high.shadow == nil && high.behindModal == nil && high.paintsBackground)
  }
}
