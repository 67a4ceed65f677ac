import Colour
import FocusEngine
import ScreenCore
import TestSupport
import Testing

/// WCAG 2.x contrast ratios of every focus state, computed from the web page's built-in
/// palettes (normal and high contrast), which the SVG frames use too. The table this prints is
/// the one in docs/accessibility.md (with TerminalPaletteContrastTests').
@Suite("Web palette contrast (WCAG AA) for every focus state")
struct WebPaletteContrastTests {
  typealias Pair = ContrastPair

  /// The web page's pairs. A title sits on a black backing over poster art that may be any
  /// colour: its background is the lightest art (`lightestArt`, darkened as the state darkens
  /// art) under the backing.
  static func web(_ palette: WebPalette) -> [Pair] {
    let black = RGB(0, 0, 0)
    func dimmed(_ color: RGB, _ brightness: Double) -> RGB { color.over(black, alpha: brightness) }
    func underBacking(_ art: RGB) -> RGB { black.over(art, alpha: palette.titleBacking) }
    let art = palette.lightestArt
    let ring = palette.ring.over(palette.stage, alpha: palette.ringOpacity)
    var pairs = [
      Pair(
        state: "unfocused", what: "title", foreground: palette.text, background: underBacking(art),
        minimum: 4.5),
      Pair(
        state: "focused", what: "title", foreground: palette.text, background: underBacking(art),
        minimum: 4.5),
      Pair(state: "focused", what: "ring", foreground: ring, background: palette.stage, minimum: 3),
      Pair(
        state: "highlighted", what: "ring", foreground: ring, background: palette.stage, minimum: 3),
      Pair(
        state: "selected", what: "title", foreground: palette.text, background: underBacking(art),
        minimum: 4.5),
      Pair(
        state: "selected", what: "heart", foreground: palette.heart,
        background: black.over(art, alpha: palette.heartBacking), minimum: 3),
      Pair(
        state: "unavailable", what: "title", foreground: palette.unavailableText,
        background: underBacking(dimmed(art, palette.unavailableArtBrightness)), minimum: 4.5),
      Pair(
        state: "heading", what: "text", foreground: palette.text, background: palette.stage,
        minimum: 4.5),
      Pair(
        state: "text field", what: "text", foreground: palette.fieldText, background: palette.field,
        minimum: 4.5),
      Pair(
        state: "text field", what: "placeholder", foreground: palette.placeholder,
        background: palette.field, minimum: 4.5),
    ]
    if let fill = palette.highlightedFill {
      pairs.insert(
        Pair(
          state: "highlighted", what: "title", foreground: palette.highlightedText,
          background: fill, minimum: 4.5), at: 3)
    } else {
      pairs.insert(
        Pair(
          state: "highlighted", what: "title", foreground: palette.highlightedText,
          background: underBacking(dimmed(art, palette.highlightedArtBrightness)), minimum: 4.5),
        at: 3)
    }
    if let outline = palette.unfocusedOutline {
      pairs.insert(
        Pair(
          state: "unfocused", what: "outline", foreground: outline, background: palette.stage,
          minimum: 3), at: 1)
      pairs.append(
        Pair(
          state: "unavailable", what: "outline", foreground: palette.unavailableText,
          background: palette.stage, minimum: 3))
    }
    return pairs
  }

  @Test("every focus state meets AA", arguments: [false, true])
  func meetsAA(highContrast: Bool) {
    let name = highContrast ? "web, high contrast" : "web, normal"
    let problems = ContrastPair.problems(Self.web(highContrast ? .high : .normal), named: name)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("high contrast: a thicker ring, solid title backings and ring")
  func highContrastShape() {
    #expect(WebPalette.high.ringWidth > WebPalette.normal.ringWidth)
    #expect(WebPalette.high.titleBacking == 1 && WebPalette.high.ringOpacity == 1)
  }
}
