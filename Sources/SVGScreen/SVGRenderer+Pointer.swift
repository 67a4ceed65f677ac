import FocusEngine
import ScreenCore

// MARK: - The pointer (iPadOS): a circle, an I-beam, a platter under highlight, lift, hover

extension SVGRenderer {
  /// The pointer circle's diameter, points (the page's too).
  static let pointerSize = 36.0
  /// Under `highlight` the platter shows this far around the item, points (the page's too).
  static let pointerPadding = 10.0
  /// The item's scale under the pointer's `hover` effect (the page's too).
  static let hoverScale = 1.06

  /// The visible pointer's effect on `item` if the pointer targets it, else nil.
  static func pointerEffect(on item: Item, _ frame: ScreenFrame) -> PointerEffectStyle? {
    guard let pointer = frame.pointer, pointer.visible, pointer.target == item.id else {
      return nil
    }
    return pointer.effect
  }

  /// The platter the pointer becomes under `highlight`: a rounded rectangle of the target's
  /// shape grown by ``pointerPadding``, centred on the pointer's drawn position (the item's
  /// centre moved by the engine's gentle parallax), drawn just before (behind) the item.
  static func pointerPlatter(_ item: Item, _ frame: ScreenFrame, at rect: Rect, look: Look)
    -> String
  {
    guard let pointer = frame.pointer, pointer.visible, pointer.target == item.id,
      pointer.shape == PointerShape.item, pointer.effect != .lift
    else { return "" }
    let width = rect.width + 2 * pointerPadding
    let height = rect.height + 2 * pointerPadding
    let fill = look.high ? "none" : "#ecf0f8"
    let stroke = look.high ? look.hex(look.palette.ring) : "#ffffff"
    return """
      <rect class="pointer platter" x="\(n(pointer.position.x - width / 2))" \
      y="\(n(pointer.position.y - height / 2))" width="\(n(width))" height="\(n(height))" \
      rx="\(n(cornerRadius(item) + pointerPadding))" fill="\(fill)" \
      fill-opacity="\(look.high ? "1" : "0.22")" stroke="\(stroke)" \
      stroke-width="\(look.high ? "4" : "1")" stroke-opacity="\(look.high ? "1" : "0.35")"/>

      """
  }

  /// The pointer drawn over everything: a circle, or an I-beam over a text field (an app's
  /// custom shape is drawn as the circle). Nothing when hidden, under `lift` (it fades under
  /// the lifted item) or as a platter (drawn behind its item).
  static func pointerMark(_ frame: ScreenFrame, look: Look) -> String {
    guard let pointer = frame.pointer, pointer.visible, pointer.effect != .lift,
      pointer.position.x.isFinite, pointer.position.y.isFinite
    else { return "" }
    let target = pointer.target.flatMap { id in frame.layout.items.first { $0.id == id } }
    if pointer.shape == PointerShape.item, target != nil { return "" }
    let (x, y) = (pointer.position.x, pointer.position.y)
    let fill = look.high ? "#ffffff" : "#ecf0f8"
    let stroke = look.high ? "#000000" : "#ffffff"
    if pointer.shape == PointerShape.iBeam {
      let height = min(44, (target?.frame.height ?? 60) * 0.6)
      return """
        <rect class="pointer ibeam" x="\(n(x - 2))" y="\(n(y - height / 2))" width="4" \
        height="\(n(height))" rx="2" fill="\(fill)" fill-opacity="0.95"/>

        """
    }
    return """
      <circle class="pointer circle" cx="\(n(x))" cy="\(n(y))" r="\(n(pointerSize / 2))" \
      fill="\(fill)" fill-opacity="\(look.high ? "1" : "0.55")" stroke="\(stroke)" \
      stroke-opacity="0.75" stroke-width="\(look.high ? "2" : "1")"/>

      """
  }
}
