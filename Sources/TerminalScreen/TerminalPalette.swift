import Colour
import FocusEngine
import ScreenCore
import TerminalUI

/// The terminal renderer's colours and attributes, one palette per contrast setting.
///
/// Contrast ratios are computed from these values (WCAG 2.x, see `RGB.contrastRatio(with:)`)
/// in `TerminalPaletteContrastTests` for every focus state; docs/accessibility.md lists them. A cell
/// without a background shows the terminal's own, assumed ``background`` (black) for those
/// ratios; the high-contrast palette paints that background itself, so nothing is assumed.
public struct TerminalPalette: Sendable, Equatable {
  /// The background under cells that set none (assumed in the normal palette, painted in the
  /// high-contrast one).
  public var background: RGB
  /// Whether every cell is painted with ``background`` first (high contrast).
  public var paintsBackground: Bool
  /// The title bar on the first row.
  public var titleBar: Style
  /// The status line.
  public var status: Style
  /// The key hint line.
  public var hint: Style
  /// "terminal too small" and other warnings.
  public var warning: Style
  /// Unfocused: border and title.
  public var unfocusedBorder: Style
  /// Unfocused title.
  public var unfocusedTitle: Style
  /// Focused (and, in inverse video, highlighted): the ring, the fill and the title.
  public var focusedBorder: Style
  /// Focused fill.
  public var focusedFill: Style
  /// Focused title.
  public var focusedTitle: Style
  /// The focused card's shadow (`▒`); nil draws none.
  public var shadow: Style?
  /// Selected: border and title (after a `♥`).
  public var selectedBorder: Style
  /// Selected title.
  public var selectedTitle: Style
  /// Unavailable: dotted border and title.
  public var unavailableBorder: Style
  /// Unavailable title.
  public var unavailableTitle: Style
  /// Row headings.
  public var heading: Style
  /// What lies under and around an open modal: restyled with this, or cleared when nil.
  public var behindModal: Style?
  /// The modal's panel: its fill and its border.
  public var dialog: Style
  /// The modal panel's border.
  public var dialogBorder: Style
  /// The focused card's ring glyphs.
  var focusRing: TerminalRenderer.Border

  /// The designed palette: translucent-looking shadow and dimmed background behind a modal,
  /// AA ratios for every focus state on a black terminal.
  public static let normal = TerminalPalette(
    background: RGB(0, 0, 0), paintsBackground: false,
    titleBar: Style(foreground: RGB(240, 240, 240), background: RGB(28, 56, 104), bold: true),
    status: Style(foreground: RGB(250, 250, 250), background: RGB(48, 48, 48)),
    hint: Style(foreground: RGB(150, 150, 150), dim: true),
    warning: Style(foreground: RGB(255, 200, 0), bold: true),
    unfocusedBorder: Style(foreground: RGB(140, 140, 140)),
    unfocusedTitle: Style(foreground: RGB(220, 220, 220)),
    focusedBorder: Style(foreground: RGB(255, 255, 255), background: RGB(36, 92, 170), bold: true),
    focusedFill: Style(foreground: RGB(255, 255, 255), background: RGB(36, 92, 170)),
    focusedTitle: Style(foreground: RGB(255, 255, 255), background: RGB(36, 92, 170), bold: true),
    shadow: Style(foreground: RGB(80, 80, 80), dim: true),
    selectedBorder: Style(foreground: RGB(235, 80, 150)),
    selectedTitle: Style(foreground: RGB(255, 110, 170), bold: true),
    // Was RGB(100) dimmed (about 1.6:1): now a plain mid grey, 5.3:1; monochrome adds dim.
    unavailableBorder: Style(foreground: RGB(128, 128, 128)),
    unavailableTitle: Style(foreground: RGB(128, 128, 128)),
    heading: Style(foreground: RGB(235, 235, 235), bold: true),
    behindModal: Style(foreground: RGB(70, 70, 70), dim: true),
    dialog: Style(foreground: RGB(235, 235, 235), background: RGB(12, 14, 20)),
    dialogBorder: Style(foreground: RGB(200, 200, 200), background: RGB(12, 14, 20), bold: true),
    focusRing: .double)

  /// High contrast (`--contrast high`): a painted black background, no dim attribute, no
  /// shadow, a cleared screen behind a modal, and a thick half-block focus ring in yellow.
  public static let high: TerminalPalette = {
    let black = RGB(0, 0, 0)
    let white = RGB(255, 255, 255)
    let yellow = RGB(255, 214, 0)
    func on(_ foreground: RGB, bold: Bool = false) -> Style {
      Style(foreground: foreground, background: black, bold: bold)
    }
    return TerminalPalette(
      background: black, paintsBackground: true,
      titleBar: Style(foreground: white, background: RGB(0, 0, 110), bold: true),
      status: Style(foreground: white, background: RGB(40, 40, 40), bold: true),
      hint: on(RGB(210, 210, 210)),
      warning: on(yellow, bold: true),
      unfocusedBorder: on(RGB(200, 200, 200)),
      unfocusedTitle: on(white),
      focusedBorder: on(yellow, bold: true),
      focusedFill: on(white),
      focusedTitle: on(white, bold: true),
      shadow: nil,
      selectedBorder: on(RGB(255, 140, 200)),
      selectedTitle: on(RGB(255, 140, 200), bold: true),
      unavailableBorder: on(RGB(170, 170, 170)),
      unavailableTitle: on(RGB(170, 170, 170)),
      heading: on(white, bold: true),
      behindModal: nil,
      dialog: on(white),
      dialogBorder: on(white, bold: true),
      focusRing: .thick)
  }()

  /// The palette for a contrast setting.
  public static func forContrast(_ contrast: DisplayOptions.Contrast) -> TerminalPalette {
    contrast == .high ? .high : .normal
  }

  /// The colours a style shows, for contrast ratios: a missing foreground is the terminal's
  /// default (assumed light grey, 229), a missing background ``background``; inverse swaps;
  /// dim halves the foreground towards the background (VTE and xterm draw it so).
  public func shownColors(_ style: Style) -> (foreground: RGB, background: RGB) {
    var foreground = style.foreground ?? RGB(229, 229, 229)
    var background = style.background ?? self.background
    if style.inverse { swap(&foreground, &background) }
    if style.dim { foreground = foreground.over(background, alpha: 0.5) }
    return (foreground, background)
  }
}
