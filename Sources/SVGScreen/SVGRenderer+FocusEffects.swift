import FocusEngine
import ScreenCore

// MARK: - The iPadOS focus effects: halo and highlight

extension SVGRenderer {
  /// The accent colour of the halo and of highlighted text (the page uses the same).
  static let accent = "#5aaaff"
  /// A highlighted card's fill: dark and neutral, so the accent text reads.
  static let highlightFill = "#141821"
  /// The card's corner radius when the item declares none, points.
  static let defaultCornerRadius = 14.0
  /// The gap between a card and its halo, points.
  static let haloGap = 6.0
  /// The halo's stroke width, points.
  static let haloWidth = 5.0

  /// The focus effect of a focused or highlighted item when it is `halo` or `highlight`;
  /// nil for the tvOS lift and for every other state, and for the visible pointer's target
  /// under the pointer's `lift` effect (which lifts it whatever its focus effect).
  static func flatEffect(_ item: Item, _ state: FocusDisplayState, _ frame: ScreenFrame)
    -> FocusEffectStyle?
  {
    guard state == .focused || state == .highlighted, pointerEffect(on: item, frame) != .lift,
      let effect = frame.layout.focusEffects()[item.id], effect != .lift
    else { return nil }
    return effect
  }

  /// The item's corner radius, or the card default.
  static func cornerRadius(_ item: Item) -> Double {
    item.cornerRadius ?? defaultCornerRadius
  }

  /// The halo: an accent outline `haloGap` outside the card whose corners follow the card's
  /// (its radius grown by the gap, so the ring stays parallel to the shape).
  static func halo(_ item: Item, _ rect: Rect, look: Look) -> String {
    let radius = cornerRadius(item) + haloGap
    // High contrast: the palette's ring colour and width; else the item's accent tints it.
    let color = look.high ? look.hex(look.palette.ring) : accentColor(item) ?? accent
    let width = look.high ? Double(look.palette.ringWidth) : haloWidth
    return """
      <rect class="halo" x="\(n(rect.x - haloGap))" y="\(n(rect.y - haloGap))" \
      width="\(n(rect.width + 2 * haloGap))" height="\(n(rect.height + 2 * haloGap))" \
      rx="\(n(radius))" fill="none" stroke="\(color)" stroke-width="\(n(width))"/>

      """
  }
}
