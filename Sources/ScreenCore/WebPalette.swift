import Colour

/// The web page's colours for one contrast setting. The page's display style sheet
/// (`WebPage.displayCSS` in WebScreen) is written from these values, the contrast tests
/// compute WCAG ratios from them, and a Chromium test reads them back as computed styles.
///
/// Poster art is arbitrary (a gradient per id, layers of coloured light), so a title never
/// relies on it: it sits on a black backing of ``titleBacking`` opacity, and its ratio is
/// computed against the lightest art can be, ``lightestArt``, under that backing.
public struct WebPalette: Sendable, Equatable {
  /// The stage behind the cards (its lightest colour).
  public var stage: RGB
  /// Titles and headings.
  public var text: RGB
  /// Opacity of the black backing behind every card title (1: solid).
  public var titleBacking: Double
  /// The lightest colour poster art can show (white: anything; black: art hidden).
  public var lightestArt: RGB
  /// How much an unavailable card's art is darkened (CSS `brightness`).
  public var unavailableArtBrightness: Double
  /// How much a highlighted (pressed) card's art is darkened.
  public var highlightedArtBrightness: Double
  /// An unavailable card's title and its "Coming soon" badge.
  public var unavailableText: RGB
  /// The focus ring (and the highlighted card's outline): colour, opacity and width in px.
  public var ring: RGB
  /// The ring's opacity.
  public var ringOpacity: Double
  /// The ring's width, CSS pixels.
  public var ringWidth: Int
  /// An unfocused card's outline (high contrast), nil for none.
  public var unfocusedOutline: RGB?
  /// A highlighted card's fill and title (high contrast), nil to keep the art.
  public var highlightedFill: RGB?
  /// The highlighted title when ``highlightedFill`` is set.
  public var highlightedText: RGB
  /// The selected mark (♥) and the opacity of the black disc behind it.
  public var heart: RGB
  /// The opacity of the heart's black backing.
  public var heartBacking: Double
  /// A text field: background, text and placeholder.
  public var field: RGB
  /// Text typed into a field.
  public var fieldText: RGB
  /// A field's placeholder.
  public var placeholder: RGB

  /// The designed look, with the backings that make every state AA on any art.
  public static let normal = WebPalette(
    stage: RGB(0x1D, 0x24, 0x33), text: RGB(0xEE, 0xF1, 0xF6), titleBacking: 0.6,
    lightestArt: RGB(255, 255, 255), unavailableArtBrightness: 0.45,
    highlightedArtBrightness: 0.72, unavailableText: RGB(0xB8, 0xBC, 0xC6),
    ring: RGB(255, 255, 255), ringOpacity: 0.92, ringWidth: 4, unfocusedOutline: nil,
    highlightedFill: nil, highlightedText: RGB(0xEE, 0xF1, 0xF6), heart: RGB(0xFF, 0x3B, 0x5C),
    heartBacking: 0.8, field: RGB(0xE9, 0xED, 0xF5), fieldText: RGB(0x14, 0x18, 0x21),
    placeholder: RGB(0x5B, 0x62, 0x75))

  /// `prefers-contrast: more`, `?contrast=high` or `--contrast high`: black, white and
  /// yellow, solid backings, art hidden, outlines on every card and a ring twice as thick.
  public static let high = WebPalette(
    stage: RGB(0, 0, 0), text: RGB(255, 255, 255), titleBacking: 1, lightestArt: RGB(0, 0, 0),
    unavailableArtBrightness: 1, highlightedArtBrightness: 1,
    unavailableText: RGB(0xAA, 0xAA, 0xAA), ring: RGB(0xFF, 0xD6, 0x00), ringOpacity: 1,
    ringWidth: 8, unfocusedOutline: RGB(0xC8, 0xC8, 0xC8), highlightedFill: RGB(0xFF, 0xD6, 0x00),
    highlightedText: RGB(0, 0, 0), heart: RGB(0xFF, 0x8C, 0xC8), heartBacking: 1,
    field: RGB(255, 255, 255), fieldText: RGB(0, 0, 0), placeholder: RGB(0x4A, 0x4A, 0x4A))

  /// `#rrggbb` for CSS.
  public static func hex(_ color: RGB) -> String {
    func two(_ value: UInt8) -> String {
      let digits = Array("0123456789abcdef")
      return String([digits[Int(value >> 4)], digits[Int(value & 15)]])
    }
    return "#" + two(color.red) + two(color.green) + two(color.blue)
  }

  /// `rgba(r, g, b, a)` for CSS.
  public static func rgba(_ color: RGB, _ alpha: Double) -> String {
    "rgba(\(color.red), \(color.green), \(color.blue), \(alpha))"
  }
}
