import Colour
import FocusEngine
import ScreenCore

// MARK: - Display options: the palette, high contrast and larger text

extension SVGRenderer {
  /// What the screen's display options change in the drawing. The colours are the web page's
  /// (`WebPalette`), so the contrast ratios computed for the page (docs/accessibility.md) hold
  /// for the SVG too, and `SVGContrastTests` reads them back out of the document.
  struct Look {
    /// The web page's palette for the screen's contrast.
    let palette: WebPalette
    /// High contrast: a black stage, art hidden, outlines on every card, a thick ring, no
    /// translucency, shadow or specular, nothing drawn behind a modal.
    let high: Bool
    /// How much titles are scaled (larger text: as the page's 40 %).
    let titleScale: Double
    /// Whether a poster's title may take a second line before it is cut (larger text).
    let wrapsTitles: Bool

    init(_ display: DisplayOptions) {
      high = display.contrast == .high
      palette = high ? .high : .normal
      let large = display.textSize == .large
      titleScale = large ? SVGRenderer.largeTextScale : 1
      wrapsTitles = large
    }

    /// CSS colour of `color`.
    func hex(_ color: RGB) -> String { WebPalette.hex(color) }
  }

  /// Larger text's scale of every title (the page's `--text-size large` is about 40 % larger).
  static let largeTextScale = 1.4
  /// The average advance of a DejaVu Sans character, as a fraction of the font size: how wide
  /// a title is estimated to be (an SVG file is not laid out until something opens it).
  public static let averageAdvance = 0.56

  /// `text` as the lines a card `width` points wide shows at `fontSize`: one line unless the
  /// look wraps titles, then up to `maximumLines` broken at spaces; a line that still does not
  /// fit is cut with `…`. Without wrapping the title is left whole, as before.
  public static func titleLines(
    _ text: String, width: Double, fontSize: Double, wraps: Bool, maximumLines: Int = 2
  ) -> [String] {
    guard wraps else { return [text] }
    let fits = max(1, Int(width / (fontSize * averageAdvance)))
    var lines: [String] = []
    var current = ""
    var words = text.split(separator: " ").map(String.init)[...]
    while let word = words.first {
      let candidate = current.isEmpty ? word : current + " " + word
      if candidate.count <= fits || current.isEmpty {
        current = candidate
        words = words.dropFirst()
        continue
      }
      lines.append(current)
      current = ""
      if lines.count == maximumLines - 1 {
        current = ([word] + words.dropFirst()).joined(separator: " ")
        words = []
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines.map { line in
      guard line.count > fits else { return line }
      var cut = line.prefix(max(1, fits - 1))
      while cut.count > 1 && cut.last == " " { cut = cut.dropLast() }
      return cut + "…"
    }
  }

  /// A rectangle with only its bottom corners rounded by `radius` (a title's backing at the
  /// foot of a rounded card).
  static func bottomRounded(_ rect: Rect, radius: Double) -> String {
    let r = min(radius, rect.height, rect.width / 2)
    let right = rect.x + rect.width
    let bottom = rect.y + rect.height
    return "M\(n(rect.x)) \(n(rect.y))H\(n(right))V\(n(bottom - r))"
      + "A\(n(r)) \(n(r)) 0 0 1 \(n(right - r)) \(n(bottom))H\(n(rect.x + r))"
      + "A\(n(r)) \(n(r)) 0 0 1 \(n(rect.x)) \(n(bottom - r))Z"
  }

  /// The card's outline and, for a focused or highlighted card, its focus ring: the
  /// palette's ring colour, opacity and width; in high contrast also a ring outside the card
  /// (as the page's box shadow) and an outline on every other card, dashed when unavailable.
  static func outline(
    _ shown: FocusDisplayState, _ rect: Rect, radius: Double, look: Look
  ) -> String {
    let palette = look.palette
    let ring = look.hex(palette.ring)
    switch shown {
    case .focused, .highlighted:
      let inner = """
        <rect class="ring" x="\(n(rect.x))" y="\(n(rect.y))" width="\(n(rect.width))" \
        height="\(n(rect.height))" rx="\(n(radius))" fill="none" stroke="\(ring)" \
        stroke-opacity="\(n(palette.ringOpacity))" stroke-width="\(look.high ? 3 : palette.ringWidth)"/>

        """
      guard look.high else { return inner }
      let half = Double(palette.ringWidth) / 2
      return inner + """
        <rect class="ring" x="\(n(rect.x - half))" y="\(n(rect.y - half))" \
        width="\(n(rect.width + 2 * half))" height="\(n(rect.height + 2 * half))" \
        rx="\(n(radius + half))" fill="none" stroke="\(ring)" stroke-width="\(palette.ringWidth)"/>

        """
    case .unavailable where look.high:
      return """
        <rect class="outline" x="\(n(rect.x + 1.5))" y="\(n(rect.y + 1.5))" \
        width="\(n(rect.width - 3))" height="\(n(rect.height - 3))" rx="\(n(radius))" fill="none" \
        stroke="\(look.hex(palette.unavailableText))" stroke-width="3" stroke-dasharray="9 6"/>

        """
    default:
      guard let outline = palette.unfocusedOutline else { return "" }
      return """
        <rect class="outline" x="\(n(rect.x + 1.5))" y="\(n(rect.y + 1.5))" \
        width="\(n(rect.width - 3))" height="\(n(rect.height - 3))" rx="\(n(radius))" fill="none" \
        stroke="\(look.hex(outline))" stroke-width="3"/>

        """
    }
  }
}
