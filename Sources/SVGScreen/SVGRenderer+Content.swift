import Colour
import FocusEngine
import Foundation
import ScreenCore

// MARK: - An item's content: image, title and subtitle, badge, accent

extension SVGRenderer {
  /// The `href` image `reference` is drawn from: an `https:` URL as it is, a relative path
  /// as a `data:` URI of the file in the asset directory (checked and read once; nil when
  /// there is no directory or the file is refused).
  func imageHref(_ reference: String) -> String? {
    if reference.hasPrefix("https://") { return reference }
    if let known = imageHrefs[reference] { return known }
    let href = assets.flatMap { try? $0.read(reference).get().dataURI }
    imageHrefs[reference] = href
    return href
  }

  /// The item's picture filling the card (cropped to cover it, clipped to its corners).
  static func picture(_ item: Item, href: String, rect: Rect, radius: Double) -> String {
    let clip = "clip-" + escape(item.id)
    return """
      <clipPath id="\(clip)"><rect x="\(n(rect.x))" y="\(n(rect.y))" width="\(n(rect.width))" \
      height="\(n(rect.height))" rx="\(n(radius))"/></clipPath>\
      <image class="picture" href="\(escape(href))" x="\(n(rect.x))" y="\(n(rect.y))" \
      width="\(n(rect.width))" height="\(n(rect.height))" preserveAspectRatio="xMidYMid slice" \
      clip-path="url(#\(clip))"/>

      """
  }

  /// The item's badge (its `content.badge`, any state) in the card's top-left corner, on a
  /// dark tag sized to its text.
  static func badge(_ item: Item, _ rect: Rect, state: FocusDisplayState, look: Look) -> String {
    guard let text = item.content.badge, !text.isEmpty, rect.width > 40, rect.height > 40
    else { return "" }
    let fontSize = 14.0
    let room = rect.width - 20
    let line = titleLines(text, width: room - 16, fontSize: fontSize, wraps: false).first ?? ""
    let width = min(room, Double(line.count) * fontSize * 0.62 + 16)
    let color = state == .unavailable ? look.palette.unavailableText : look.palette.text
    return """
      <g class="badge"><rect x="\(n(rect.x + 10))" y="\(n(rect.y + 10))" width="\(n(width))" \
      height="26" rx="6" fill="#000" fill-opacity="\(n(look.palette.titleBacking))"/>\
      <text x="\(n(rect.x + 10 + width / 2))" y="\(n(rect.y + 28))" text-anchor="middle" \
      font-size="\(n(fontSize))" font-weight="600" fill="\(look.hex(color))">\(escape(line))</text></g>

      """
  }

  /// The item's accent colour (`#rrggbb`, lowercase), or nil when it has none.
  static func accentColor(_ item: Item) -> String? {
    guard let rgb = item.content.accentRGB else { return nil }
    return String(format: "#%02x%02x%02x", rgb.red, rgb.green, rgb.blue)
  }

  /// The accent: a bar along the card's foot in the item's colour (not in high contrast,
  /// whose palette alone tells the states apart).
  static func accentBar(_ item: Item, _ rect: Rect, radius: Double, look: Look) -> String {
    guard !look.high, let color = accentColor(item), rect.height > 12 else { return "" }
    let bar = Rect(x: rect.x, y: rect.y + rect.height - 6, width: rect.width, height: 6)
    return """
      <path class="accent" d="\(bottomRounded(bar, radius: min(radius, 6)))" fill="\(color)"/>

      """
  }

  /// A card's title on its black backing (a poster's at its foot, a short control's over the
  /// whole card), or a text field's text or placeholder; larger text scales and may wrap it.
  static func title(
    _ item: Item, _ frame: ScreenFrame, state: FocusDisplayState, shown: FocusDisplayState,
    effect: FocusEffectStyle?, rect: Rect, look: Look
  ) -> String {
    let palette = look.palette
    let short = rect.height < 120
    let isText = item.kind == .textField
    let typed = isText ? frame.text[item.id].flatMap { $0.isEmpty ? nil : $0 } : nil
    let text = typed ?? item.title
    let fontSize = Double(short ? 24 : 20) * look.titleScale
    let lineHeight = fontSize * 1.2
    let lines = titleLines(
      text, width: rect.width - 16, fontSize: fontSize, wraps: look.wrapsTitles && !short)
    let textColor = titleColor(
      isText: isText, typed: typed != nil, effect: effect, state: state, shown: shown, look: look)
    var out = ""
    let backed = !isText && effect != .highlight && !(look.high && shown == .highlighted)
    // A poster's subtitle: one smaller line under the title, on the same backing.
    let subtitle = short || isText ? nil : item.content.subtitle.flatMap { $0.isEmpty ? nil : $0 }
    let subtitleSize = fontSize * 0.7
    let subtitleHeight = subtitle == nil ? 0 : subtitleSize * 1.3
    let body = short || isText ? [] : bodyLines(item, rect: rect, fontSize: fontSize)
    let bodyHeight = body.isEmpty ? 0 : Double(body.count) * fontSize * bodyScale * 1.3 + 6
    let firstBaseline: Double
    if short || isText {
      firstBaseline = rect.y + rect.height / 2 + fontSize * 0.35
      if backed {
        out += """
          <rect class="title-backing" x="\(n(rect.x))" y="\(n(rect.y))" width="\(n(rect.width))" \
          height="\(n(rect.height))" rx="\(n(cornerRadius(item)))" fill="#000" \
          fill-opacity="\(n(palette.titleBacking))"/>

          """
      }
    } else {
      let height = Double(lines.count) * lineHeight + 14 + subtitleHeight + bodyHeight
      firstBaseline = rect.y + rect.height - height + 7 + fontSize
      if backed {
        let strip = Rect(
          x: rect.x, y: rect.y + rect.height - height, width: rect.width, height: height)
        out += """
          <path class="title-backing" d="\(bottomRounded(strip, radius: cornerRadius(item)))" \
          fill="#000" fill-opacity="\(n(palette.titleBacking))"/>

          """
      }
    }
    let caret = isText && frame.editingText && frame.focused == item.id ? "▏" : ""
    for (index, line) in lines.enumerated() {
      out += """
        <text class="title" x="\(n(rect.x + rect.width / 2))" \
        y="\(n(firstBaseline + Double(index) * lineHeight))" text-anchor="middle" \
        font-size="\(n(fontSize))" font-weight="600" fill="\(look.hex(textColor))">\
        \(escape(line))\(index == lines.count - 1 ? caret : "")</text>

        """
    }
    if let subtitle {
      out += subtitleText(
        subtitle, rect: rect,
        baseline: firstBaseline + Double(lines.count - 1) * lineHeight
          + subtitleHeight, fontSize: subtitleSize, color: textColor, look: look)
    }
    let bodyTop = firstBaseline + Double(lines.count - 1) * lineHeight + subtitleHeight + 6
    out += bodyText(
      item, body, top: bodyTop, rect: rect, fontSize: fontSize, color: textColor, look: look)
    return out
  }

  /// The title's colour: a text field's text or placeholder, the highlight effect's blue, the
  /// unavailable grey, or the palette's text.
  private static func titleColor(
    isText: Bool, typed: Bool, effect: FocusEffectStyle?, state: FocusDisplayState,
    shown: FocusDisplayState, look: Look
  ) -> RGB {
    let palette = look.palette
    if isText { return typed ? palette.fieldText : palette.placeholder }
    if effect == .highlight { return look.high ? palette.ring : RGB(0x5A, 0xAA, 0xFF) }
    if state == .unavailable { return palette.unavailableText }
    if look.high && shown == .highlighted { return palette.highlightedText }
    return palette.text
  }

  /// A poster's subtitle: one smaller line under the title, cut to the card's width.
  private static func subtitleText(
    _ subtitle: String, rect: Rect, baseline: Double, fontSize: Double, color: RGB, look: Look
  ) -> String {
    let shownLine =
      titleLines(subtitle, width: rect.width - 16, fontSize: fontSize, wraps: false).first ?? ""
    return """
      <text class="subtitle" x="\(n(rect.x + rect.width / 2))" y="\(n(baseline))" \
      text-anchor="middle" font-size="\(n(fontSize))" fill="\(look.hex(color))" \
      fill-opacity="0.85">\(escape(shownLine))</text>

      """
  }

  /// The body's size against the title's (the page's `0.62em`).
  public static let bodyScale = 0.62
  /// Cards shorter than this (canvas points) show no body, as on the page.
  public static let bodyMinHeight = 300.0

  /// A tall poster's body as the lines drawn under its title and subtitle: line breaks and
  /// runs of spaces fold into one space (as the page's text does), broken at spaces, at most
  /// three lines, a line that still does not fit cut with `…`.
  static func bodyLines(_ item: Item, rect: Rect, fontSize: Double) -> [String] {
    guard let body = item.content.body, rect.height >= bodyMinHeight else { return [] }
    let words = body.split(whereSeparator: { $0 == " " || $0.isNewline })
    guard !words.isEmpty else { return [] }
    return titleLines(
      words.joined(separator: " "), width: rect.width - 16, fontSize: fontSize * bodyScale,
      wraps: true, maximumLines: 3)
  }

  /// `lines` of body text from the baseline under `top`, escaped, clipped to the card.
  private static func bodyText(
    _ item: Item, _ lines: [String], top: Double, rect: Rect, fontSize: Double, color: RGB,
    look: Look
  ) -> String {
    guard !lines.isEmpty else { return "" }
    let size = fontSize * bodyScale
    let clip = "body-clip-" + escape(item.id)
    var out = """
      <clipPath id="\(clip)"><rect x="\(n(rect.x))" y="\(n(rect.y))" width="\(n(rect.width))" \
      height="\(n(rect.height))"/></clipPath><g class="body" clip-path="url(#\(clip))">

      """
    for (index, line) in lines.enumerated() {
      out += """
        <text x="\(n(rect.x + rect.width / 2))" y="\(n(top + size + Double(index) * size * 1.3))" \
        text-anchor="middle" font-size="\(n(size))" fill="\(look.hex(color))" \
        fill-opacity="0.85">\(escape(line))</text>

        """
    }
    return out + "</g>\n"
  }

}
