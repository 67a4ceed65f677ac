import FocusEngine
import ScreenCore
import TerminalScreen
import TerminalUI
import Testing

/// WCAG 2.x contrast ratios of every focus state, computed from the built-in palettes (the
/// terminal's and the web page's, normal and high contrast): AA asks 4.5:1 for text and 3:1
/// for focus indicators and other parts of the interface. The table this prints is the one in
/// docs/accessibility.md.
@Suite("Palette contrast (WCAG AA) for every focus state")
struct PaletteContrastTests {
  /// One state's text and indicator colours.
  struct Pair: CustomStringConvertible {
    var state: String
    var what: String
    var foreground: RGB
    var background: RGB
    var minimum: Double
    var ratio: Double { foreground.contrastRatio(with: background) }
    var description: String {
      "\(state) \(what): \((ratio * 100).rounded() / 100):1 (needs \(minimum))"
    }
  }

  @Test("WCAG formula: black on white is 21:1, a colour on itself 1:1, #777 on white about 4.48")
  func formula() {
    let white = RGB(255, 255, 255)
    #expect(abs(RGB(0, 0, 0).contrastRatio(with: white) - 21) < 1e-9)
    #expect(abs(RGB(36, 92, 170).contrastRatio(with: RGB(36, 92, 170)) - 1) < 1e-9)
    #expect(abs(RGB(0x77, 0x77, 0x77).contrastRatio(with: white) - 4.48) < 0.01)
  }

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

  static let palettes: [(String, [Pair])] = [
    ("terminal, normal", terminal(.normal)), ("terminal, high contrast", terminal(.high)),
    ("web, normal", web(.normal)), ("web, high contrast", web(.high)),
  ]

  @Test("every focus state meets AA", arguments: palettes.map(\.0))
  func meetsAA(_ name: String) throws {
    let pairs = try #require(Self.palettes.first { $0.0 == name }?.1)
    print("\(name):")
    for pair in pairs {
      print("  \(pair)")
      #expect(pair.ratio >= pair.minimum, "\(name): \(pair)")
    }
    for state in ["unfocused", "focused", "highlighted", "selected", "unavailable"] {
      #expect(pairs.contains { $0.state == state }, "\(name) covers \(state)")
    }
  }

  @Test("high contrast: solid colours, thicker ring, no shadow, the modal clears what is under it")
  func highContrastShape() {
    let high = TerminalPalette.high
    for style in [
      high.unfocusedTitle, high.focusedTitle, high.selectedTitle, high.unavailableTitle,
    ] {
      #expect(!style.dim && style.background != nil)
    }
    #expect(high.shadow == nil && high.behindModal == nil && high.paintsBackground)
    #expect(WebPalette.high.ringWidth > WebPalette.normal.ringWidth)
    #expect(WebPalette.high.titleBacking == 1 && WebPalette.high.ringOpacity == 1)
  }
}
