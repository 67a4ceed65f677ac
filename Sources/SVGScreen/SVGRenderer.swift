import Colour
import FocusEngine
import Foundation
import QREncoder
import ScreenCore

/// Writes one SVG file per applied state (`frame-000001.svg`, …) that looks like the web
/// renderer's page: cards with titles, the five states, the focused card lifted, scaled and
/// skewed to suggest its tilt, shadows from the engine's numbers, a specular highlight and a
/// status line. For documentation and snapshot tests; the drawing is `SVGRenderer.svg(for:)`.
public final class SVGRenderer: Renderer {
  private let directory: String
  private let display: DisplayOptions
  /// Where relative item images are read from (nil: they are not drawn).
  let assets: AssetDirectory?
  /// Image reference → the `href` it is drawn with (nil: refused), read once.
  var imageHrefs: [String: String?] = [:]
  private var count = 0
  private var phoneCode: (url: String, code: QRCode?)?
  /// Where the phone remote's page server hands over the URL of its QR code (from any
  /// thread); it is drawn in the top-right corner from the next frame on.
  public let phoneCodeSlot = PhoneCodeSlot()

  /// Writes into `directory`, creating it if needed, drawn as `display` asks (high contrast,
  /// larger text; reduced motion arrives as frames at rest). Relative item images are read
  /// from `assets` and embedded as `data:` URIs (``AssetDirectory``'s checks and limit).
  public init(
    directory: String, display: DisplayOptions = .standard, assets: AssetDirectory? = nil
  ) throws {
    self.directory = directory
    self.display = display
    self.assets = assets
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
  }

  /// Nothing to prepare.
  public func start() throws {}

  /// Writes the next numbered file.
  public func render(_ frame: ScreenFrame) throws {
    count += 1
    let name = String(format: "frame-%06d.svg", count)
    if let change = phoneCodeSlot.takeChange() {
      phoneCode = change.map { ($0, try? QRCode($0)) }
    }
    var document = Self.svg(for: frame, display: display) { self.imageHref($0) }
    if let phoneCode {
      Self.insertPhoneCode(
        phoneCode.code, url: phoneCode.url, canvas: frame.layout.canvas, into: &document)
    }
    try Data(document.utf8).write(
      to: URL(fileURLWithPath: directory).appendingPathComponent(name))
  }

  /// Never needs waking.
  public var wakeFileDescriptor: Int32? { nil }

  /// Never called.
  public func handleWake() throws {}

  /// Nothing to restore.
  public func stop() {}

  /// The side of the phone remote's code, points.
  static let phoneCodeSide = 240.0

  /// Adds the phone remote's QR code (dark on white, `QRCode.svg()` with its quiet zone) in
  /// the top-right corner of the canvas, its URL underneath, as the document's last element.
  static func insertPhoneCode(
    _ code: QRCode?, url: String, canvas: Size, into document: inout String
  ) {
    guard let end = document.range(of: "</svg>", options: .backwards) else { return }
    let side = phoneCodeSide
    let x = canvas.width - side - 16
    var element = ""
    if let code {
      element +=
        code.svg(pixels: Int(side)).replacingOccurrences(
          of: "<svg ", with: "<svg x=\"\(n(x))\" y=\"16\" ", options: .anchored) + "\n"
    }
    element += """
      <text x="\(n(canvas.width - 16))" y="\(n(side + 36))" text-anchor="end" font-size="14" \
      fill="#fff">\(escape(url))</text>

      """
    document.insert(contentsOf: element, at: end.lowerBound)
  }

  /// How far the skew follows the tilt: an affine stand-in for the page's perspective.
  static let skewPerDegree = 0.8
  /// The status line's height below the canvas, points.
  static let statusHeight = 56.0

  /// The SVG document for `frame`, drawn as `display` asks; `imageHref` gives the `href` an
  /// item's image is drawn from (nil: none), by default `https:` URLs only.
  public static func svg(
    for frame: ScreenFrame, display: DisplayOptions = .standard,
    imageHref: (String) -> String? = { $0.hasPrefix("https://") ? $0 : nil }
  ) -> String {
    let look = Look(display)
    let canvas = frame.layout.canvas
    let height = canvas.height + statusHeight
    var out = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(n(canvas.width))" height="\(n(height))" \
      viewBox="0 0 \(n(canvas.width)) \(n(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
      <defs>
      <radialGradient id="bg" cx="50%" cy="0%" r="90%"><stop offset="0" stop-color="#1d2433"/>\
      <stop offset="1" stop-color="#0b0d12"/></radialGradient>
      <filter id="gray"><feColorMatrix type="saturate" values="0"/></filter>

      """
    for state in FocusDisplayState.allCases where state != .unavailable {
      out += shadowFilter(id: "shadow-\(state.rawValue)", Parallax.shadow(for: state))
    }
    if let parallax = frame.parallax {
      out += shadowFilter(id: "shadow-tilt", parallax.shadow)
      out += """
        <radialGradient id="specular" cx="\(n(parallax.specular.x))" cy="\(n(parallax.specular.y))" r="0.6">\
        <stop offset="0" stop-color="#fff" stop-opacity="0.45"/><stop offset="0.6" stop-color="#fff" \
        stop-opacity="0.06"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>

        """
    }
    out += """
      </defs>
      <rect width="\(n(canvas.width))" height="\(n(canvas.height))" \
      fill="\(look.high ? look.hex(look.palette.stage) : "url(#bg)")"/>

      """
    // The focused (and highlighted) card goes last so it is drawn above its neighbours.
    let order = frame.drawnItems.sorted { rank(frame, $0) < rank(frame, $1) }
    let presented = frame.scroll.isEmpty ? [:] : frame.presentedFrames()
    // A focus-trapping group holding focus (a detail view) is drawn over a dark scrim; in
    // high contrast what lies under it is not drawn at all (the page hides it too).
    let modal = modalItems(frame)
    let behind = order.filter { item in modal.map { !$0.contains(item.id) } ?? false }
    for item in behind where !look.high {
      out += card(
        item, frame, at: presented[item.id] ?? item.frame, look: look, imageHref: imageHref)
    }
    if modal != nil {
      out += """
        <rect class="scrim" width="\(n(canvas.width))" height="\(n(canvas.height))" fill="#000" \
        fill-opacity="\(look.high ? "1" : "0.6")"/>

        """
    }
    for item in order where modal?.contains(item.id) ?? true {
      let rect = presented[item.id] ?? item.frame
      out += pointerPlatter(item, frame, at: rect, look: look)
      out += card(item, frame, at: rect, look: look, imageHref: imageHref)
    }
    out += pointerMark(frame, look: look)
    out += status(frame, y: canvas.height, width: canvas.width, look: look)
    out += "</svg>\n"
    return out
  }

  /// The items of the focus-trapping group (a modal) that holds focus, if one does.
  private static func modalItems(_ frame: ScreenFrame) -> Set<String>? {
    guard let focused = frame.focused else { return nil }
    func all(_ group: Group) -> [String] { group.items + group.groups.flatMap(all) }
    func find(_ groups: [Group]) -> Set<String>? {
      for group in groups {
        if group.trapsFocus {
          let items = Set(all(group))
          if items.contains(focused) { return items }
        }
        if let inner = find(group.groups) { return inner }
      }
      return nil
    }
    return find(frame.layout.groups)
  }

  private static func rank(_ frame: ScreenFrame, _ item: Item) -> Int {
    switch frame.states[item.id] {
    case .focused: 2
    case .highlighted: 1
    default: 0
    }
  }

  /// A drop shadow from SVG 1.1 primitives (feDropShadow is not in every SVG renderer).
  private static func shadowFilter(id: String, _ shadow: Parallax.Shadow) -> String {
    """
    <filter id="\(id)" x="-30%" y="-30%" width="160%" height="170%">\
    <feGaussianBlur in="SourceAlpha" stdDeviation="\(n(shadow.radius / 2))"/>\
    <feOffset dy="\(n(shadow.offsetY))" result="blur"/>\
    <feFlood flood-color="#000" flood-opacity="\(n(shadow.opacity))"/>\
    <feComposite in2="blur" operator="in"/>\
    <feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>

    """
  }

  /// How one card is shown in this frame: its state, the flat effect (halo, highlight) that
  /// replaces lift and tilt, the parallax tilt if it is the focused card, the pointer's effect.
  private struct CardPose {
    let state: FocusDisplayState
    let effect: FocusEffectStyle?
    /// The state the card is drawn as: unfocused under a flat effect.
    let shown: FocusDisplayState
    let tilted: Parallax?
    let pointed: PointerEffectStyle?

    init(_ item: Item, _ frame: ScreenFrame) {
      state = frame.states[item.id] ?? .unfocused
      // Halo and highlight neither lift nor tilt: the card keeps its unfocused look.
      effect = flatEffect(item, state, frame)
      shown = effect == nil ? state : .unfocused
      tilted = effect == nil && frame.parallax?.item == item.id ? frame.parallax : nil
      pointed = pointerEffect(on: item, frame)
    }
  }

  private static func card(
    _ item: Item, _ frame: ScreenFrame, at rect: Rect, look: Look,
    imageHref: (String) -> String?
  ) -> String {
    if item.kind == .label { return label(item, at: rect, look: look) }
    let pose = CardPose(item, frame)
    let (state, effect, shown) = (pose.state, pose.effect, pose.shown)
    let isText = item.kind == .textField
    let radius = cornerRadius(item)
    var out = cardOpening(item, pose, at: rect, radius: radius, look: look)
    if !isText && effect != .highlight, let reference = item.content.image,
      let href = imageHref(reference)
    {
      out += picture(item, href: href, rect: rect, radius: radius)
    }
    if !isText && !look.high && effect != .highlight {
      out += art(item, pose, at: rect, radius: radius, look: look)
    }
    // The pointer's hover tint: the page's brightening, as a light wash over the card.
    if pose.pointed == .hover && !look.high {
      out += """
        <rect class="hover-tint" x="\(n(rect.x))" y="\(n(rect.y))" width="\(n(rect.width))" \
        height="\(n(rect.height))" rx="\(n(radius))" fill="#fff" fill-opacity="0.1"/>

        """
    }
    if state == .focused && pose.tilted != nil && !look.high {
      out += """
        <rect x="\(n(rect.x))" y="\(n(rect.y))" width="\(n(rect.width))" height="\(n(rect.height))" \
        rx="\(n(radius))" fill="url(#specular)"/>

        """
    }
    out += title(item, frame, state: state, shown: shown, effect: effect, rect: rect, look: look)
    out += outline(shown, rect, radius: radius, look: look)
    out += accentBar(item, rect, radius: radius, look: look)
    if effect == .halo { out += halo(item, rect, look: look) }
    if state == .selected { out += heart(rect, look: look) }
    out += badge(item, rect, state: state, look: look)
    out += "</g>\n"
    return out
  }

  /// A heading: text at the leading edge, no card.
  private static func label(_ item: Item, at rect: Rect, look: Look) -> String {
    """
    <text class="label" id="\(escape(item.id))" x="\(n(rect.x))" \
    y="\(n(rect.y + rect.height * 0.75))" font-size="\(n(min(34, rect.height * 0.8) * look.titleScale))" \
    font-weight="700" fill="\(look.hex(look.palette.text))">\(escape(item.title))</text>

    """
  }

  /// The card's group (its lift, tilt and filter) and its background.
  private static func cardOpening(
    _ item: Item, _ pose: CardPose, at rect: Rect, radius: Double, look: Look
  ) -> String {
    let palette = look.palette
    let (state, effect, shown) = (pose.state, pose.effect, pose.shown)
    let centerX = rect.x + rect.width / 2
    let centerY = rect.y + rect.height / 2
    var scale = Parallax.scale(for: shown)
    var skew = (x: 0.0, y: 0.0)
    if let tilted = pose.tilted {
      scale = tilted.scale
      skew = (x: -tilted.rotateX * skewPerDegree, y: tilted.rotateY * skewPerDegree)
    }
    if pose.pointed == .hover { scale *= hoverScale }
    // The pointer's effect on its target, as a class (`ptr-lift`, …), as the page's.
    let pointerClass = pose.pointed.flatMap { $0 == .none ? nil : " ptr-\($0.rawValue)" } ?? ""
    let transform =
      "translate(\(n(centerX)) \(n(centerY))) scale(\(n(scale))) skewX(\(n(skew.x))) "
      + "skewY(\(n(skew.y))) translate(\(n(-centerX)) \(n(-centerY)))"
    // High contrast: no shadow and no greying (solid colours only).
    let filter =
      if look.high { "" } else {
        switch state {
        case .unavailable: #" filter="url(#gray)""#
        case .focused where pose.tilted != nil: #" filter="url(#shadow-tilt)""#
        default: #" filter="url(#shadow-\#(shown.rawValue))""#
        }
      }
    let fill =
      if item.kind == .textField { look.hex(palette.field) } else if effect == .highlight {
        look.high ? "#000" : highlightFill
      } else if look.high {
        shown == .highlighted ? look.hex(palette.highlightedFill ?? palette.ring) : "#000"
      } else { color(for: item.id, lightness: 0.38) }
    return """
      <g class="item \(state.rawValue)\(pointerClass)" id="\(escape(item.id))" transform="\(transform)"\(filter)>
      <rect x="\(n(rect.x))" y="\(n(rect.y))" width="\(n(rect.width))" height="\(n(rect.height))" \
      rx="\(n(radius))" fill="\(fill)"/>

      """
  }

  /// The card's parallax layers (shifted by the tilt), darkened when unavailable or pressed as
  /// the page's `brightness`.
  private static func art(
    _ item: Item, _ pose: CardPose, at rect: Rect, radius: Double, look: Look
  ) -> String {
    var out = ""
    for (index, layer) in item.layers.enumerated() {
      let shift = pose.tilted.flatMap { index < $0.translate.count ? $0.translate[index] : nil }
      let layerRadius = min(rect.width, rect.height) * (0.12 + 0.1 * layer.depth)
      out += """
        <circle cx="\(n(rect.x + rect.width * (0.3 + 0.4 * layer.depth) + (shift?.x ?? 0)))" \
        cy="\(n(rect.y + rect.height * (0.45 - 0.15 * layer.depth) + (shift?.y ?? 0)))" \
        r="\(n(layerRadius))" fill="#fff" fill-opacity="\(n(0.12 + 0.25 * layer.depth))"/>

        """
    }
    let darken =
      pose.state == .unavailable
      ? look.palette.unavailableArtBrightness
      : pose.shown == .highlighted ? look.palette.highlightedArtBrightness : 1
    if darken < 1 {
      out += """
        <rect class="darken" x="\(n(rect.x))" y="\(n(rect.y))" width="\(n(rect.width))" \
        height="\(n(rect.height))" rx="\(n(radius))" fill="#000" fill-opacity="\(n(1 - darken))"/>

        """
    }
    return out
  }

  /// The selected card's heart, on a dark backing so it reads on any art.
  private static func heart(_ rect: Rect, look: Look) -> String {
    """
    <circle class="heart-backing" cx="\(n(rect.x + rect.width - 27))" cy="\(n(rect.y + 23))" \
    r="17" fill="#000" fill-opacity="\(n(look.palette.heartBacking))"/>\
    <text x="\(n(rect.x + rect.width - 27))" y="\(n(rect.y + 32))" text-anchor="middle" \
    font-size="26" fill="\(look.hex(look.palette.heart))">♥</text>

    """
  }

  private static func status(_ frame: ScreenFrame, y: Double, width: Double, look: Look)
    -> String
  {
    var line = "nothing focused"
    if let id = frame.focused {
      let title = frame.layout.items.first { $0.id == id }?.title ?? id
      line = "▶ \(title) (\(id))"
      if let parallax = frame.parallax,
        let item = frame.layout.items.first(where: { $0.id == id }),
        flatEffect(item, frame.states[id] ?? .focused, frame) == nil
      {
        line += String(
          format: " · rotateX %.2f° rotateY %.2f° scale %.2f", parallax.rotateX + 0,
          parallax.rotateY + 0, parallax.scale)
      }
    }
    line += " · seq \(frame.seq)"
    if let event = frame.lastEvent, !event.isEmpty { line += " · \(event)" }
    return """
      <rect x="0" y="\(n(y))" width="\(n(width))" height="\(n(statusHeight))" \
      fill="\(look.high ? "#000" : "#05070a")"/>
      <text x="24" y="\(n(y + 36))" font-size="22" fill="\(look.high ? "#fff" : "#aab3c5")">\(escape(line))</text>

      """
  }

  /// A poster colour from the item's id (the page uses the same hue).
  static func color(for id: String, lightness: Double) -> String {
    var hash: UInt32 = 2_166_136_261  // FNV-1a over UTF-16 units, as the page computes it.
    for unit in id.utf16 { hash = (hash ^ UInt32(unit)) &* 16_777_619 }
    let hue = Double(hash % 360)
    let saturation = 0.5
    let chroma = (1 - abs(2 * lightness - 1)) * saturation
    let sector = hue / 60
    let second = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
    let (red, green, blue): (Double, Double, Double) =
      switch Int(sector) {
      case 0: (chroma, second, 0)
      case 1: (second, chroma, 0)
      case 2: (0, chroma, second)
      case 3: (0, second, chroma)
      case 4: (second, 0, chroma)
      default: (chroma, 0, second)
      }
    let match = lightness - chroma / 2
    func byte(_ value: Double) -> Int { Int(((value + match) * 255).rounded()) }
    return String(format: "#%02x%02x%02x", byte(red), byte(green), byte(blue))
  }

  /// A number with at most three decimals and no trailing zeros.
  static func n(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }

  /// Text for an SVG (XML) document: markup characters as entities, and control characters
  /// (C0, DEL, C1 — XML 1.0 forbids most of them even as references) as `U+FFFD`, so a
  /// peer's title keeps the document well formed.
  static func escape(_ text: String) -> String {
    var clean = text
    if text.unicodeScalars.contains(where: isControl) {
      clean = String(
        String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "\u{FFFD}" : $0 }))
    }
    return clean.replacingOccurrences(of: "&", with: "&amp;")
      .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
      .replacingOccurrences(of: "\"", with: "&quot;")
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
