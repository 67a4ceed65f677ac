import Colour
import FocusEngine
import Foundation
import SVGScreen
import ScreenCore
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The SVG renderer under the screen's display options: the colours it writes are read back
/// out of the document and their WCAG ratios computed for every focus state, high contrast
/// draws solid shapes only, and larger text scales and wraps titles.
@Suite("SVG renderer: high contrast and larger text")
struct SVGDisplayTests {
  /// Every element of the document with its attributes, and the item group it is in.
  final class Elements: NSObject, XMLParserDelegate {
    struct Element {
      var name: String
      var attributes: [String: String]
      var item: String?
      var text = ""
    }
    var all: [Element] = []
    private var groups: [String?] = []
    private var open: [Int] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      if name == "g" { groups.append(attributes["id"]) }
      all.append(Element(name: name, attributes: attributes, item: groups.last ?? nil))
      open.append(all.count - 1)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if let last = open.last { all[last].text += string }
    }

    func parser(
      _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
    ) {
      if name == "g" { groups.removeLast() }
      open.removeLast()
    }

    func of(_ item: String, _ name: String, class kind: String? = nil) -> [Element] {
      all.filter {
        $0.item == item && $0.name == name && (kind == nil || $0.attributes["class"] == kind)
      }
    }
  }

  static func parse(_ svg: String) throws -> Elements {
    let parser = XMLParser(data: Data(svg.utf8))
    let elements = Elements()
    parser.delegate = elements
    #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
    return elements
  }

  static func rgb(_ hex: String?) throws -> RGB {
    let digits = try #require(hex.flatMap { $0.hasPrefix("#") ? String($0.dropFirst()) : nil })
    let value = try #require(
      UInt32(digits.count == 3 ? digits.map { "\($0)\($0)" }.joined() : digits, radix: 16))
    return RGB(UInt8(value >> 16), UInt8((value >> 8) & 255), UInt8(value & 255))
  }

  static let states: [(String, FocusDisplayState)] = [
    ("a", .focused), ("b", .highlighted), ("c", .selected), ("d", .unavailable), ("e", .unfocused),
  ]

  /// The five-state frame of the SVG tests, at rest.
  static var frame: ScreenFrame { SVGRendererTests.frame(rotateY: 0) }

  @Test(
    "every state's title and ring meet WCAG AA as drawn",
    arguments: DisplayOptions.Contrast.allCases)
  func contrast(_ contrast: DisplayOptions.Contrast) throws {
    let display = DisplayOptions(contrast: contrast)
    let document = try Self.parse(SVGRenderer.svg(for: Self.frame, display: display))
    let stageFill = try #require(document.all.first { $0.name == "rect" && $0.item == nil })
    // The normal stage is a gradient from #1d2433 (its lightest) to #0b0d12.
    let stage =
      stageFill.attributes["fill"] == "url(#bg)"
      ? RGB(0x1D, 0x24, 0x33) : try Self.rgb(stageFill.attributes["fill"])
    let black = RGB(0, 0, 0)
    for (id, state) in Self.states {
      let title = try #require(document.of(id, "text", class: "title").first, "\(id) title")
      let card = try #require(document.of(id, "rect").first, "\(id) card")
      // The lightest the title's background can be: the brightest art (white) in the normal
      // look, the card's own fill when the art is hidden (high contrast), darkened as the
      // state darkens art, under the black backing.
      var under = contrast == .high ? try Self.rgb(card.attributes["fill"]) : RGB(255, 255, 255)
      if let darken = document.of(id, "rect", class: "darken").first {
        under = black.over(under, alpha: Double(darken.attributes["fill-opacity"] ?? "0") ?? 0)
      }
      if let backing = document.all.first(where: {
        $0.item == id && $0.attributes["class"] == "title-backing"
      }) {
        under = black.over(under, alpha: Double(backing.attributes["fill-opacity"] ?? "1") ?? 1)
      }
      let ratio = try Self.rgb(title.attributes["fill"]).contrastRatio(with: under)
      #expect(ratio >= 4.5, "\(contrast) \(state) title: \(ratio):1")
      #expect(title.attributes["opacity"] == nil && card.attributes["opacity"] == nil)
      if state == .focused || state == .highlighted {
        let ring = try #require(document.of(id, "rect", class: "ring").last, "\(id) ring")
        let color = try Self.rgb(ring.attributes["stroke"])
          .over(stage, alpha: Double(ring.attributes["stroke-opacity"] ?? "1") ?? 1)
        #expect(color.contrastRatio(with: stage) >= 3, "\(contrast) \(state) ring")
      }
    }
    let heart = try #require(document.of("c", "text").first { $0.text == "♥" })
    let disc = try #require(document.of("c", "circle").first)
    let heartOn = black.over(
      contrast == .high ? black : RGB(255, 255, 255),
      alpha: Double(disc.attributes["fill-opacity"] ?? "1") ?? 1)
    #expect(try Self.rgb(heart.attributes["fill"]).contrastRatio(with: heartOn) >= 3)
  }

  @Test("high contrast: a black stage, solid cards with outlines, a thick ring, no art or shadow")
  func highContrastShapes() throws {
    let display = DisplayOptions(contrast: .high)
    let svg = SVGRenderer.svg(for: SVGRendererTests.frame(rotateY: 4), display: display)
    let document = try Self.parse(svg)
    #expect(!svg.contains("filter=\"url("), "no shadow or grey filter")
    #expect(!svg.contains("url(#specular)") && !svg.contains("url(#bg)"))
    #expect(
      document.all.first { $0.name == "rect" && $0.item == nil }?.attributes["fill"] == "#000000")
    for (id, state) in Self.states {
      #expect(
        document.of(id, "circle").filter { $0.attributes["class"] == nil }.isEmpty,
        "\(id): art hidden")
      switch state {
      case .focused, .highlighted:
        let widths = document.of(id, "rect", class: "ring").compactMap {
          $0.attributes["stroke-width"]
        }
        #expect(widths.contains("\(WebPalette.high.ringWidth)"), "\(id): \(widths)")
      case .unavailable:
        #expect(
          document.of(id, "rect", class: "outline").first?.attributes["stroke-dasharray"] != nil)
      default:
        #expect(document.of(id, "rect", class: "outline").count == 1, "\(id) outlined")
      }
    }
    let normal = try Self.parse(SVGRenderer.svg(for: SVGRendererTests.frame(rotateY: 4)))
    #expect(normal.of("e", "rect", class: "outline").isEmpty)
    #expect(!normal.of("a", "circle").isEmpty, "the normal look keeps the art")
  }

  @Test("high contrast: what lies under a modal is not drawn, and the scrim is opaque")
  func highContrastModal() throws {
    var frame = Self.frame
    frame.layout.groups = [Group(id: "detail", items: ["a", "b"], trapsFocus: true)]
    let high = SVGRenderer.svg(for: frame, display: DisplayOptions(contrast: .high))
    #expect(high.contains(#"fill-opacity="1"/>"#) && high.contains(#"class="scrim""#))
    for id in ["c", "d", "e"] { #expect(!high.contains(#"id="\#(id)""#), "\(id) hidden") }
    let normal = SVGRenderer.svg(for: frame)
    for id in ["c", "d", "e"] { #expect(normal.contains(#"id="\#(id)""#), "\(id) dimmed") }
  }

  @Test("larger text: titles 40 % larger, a long poster title wraps onto a second line")
  func largerText() throws {
    var frame = Self.frame
    frame.layout.items[4].title = "The Very Long Road Home Again"
    frame.layout.items[4].frame.width = 300
    let large = try Self.parse(
      SVGRenderer.svg(for: frame, display: DisplayOptions(textSize: .large)))
    let lines = large.of("e", "text", class: "title")
    #expect(lines.map(\.text) == ["The Very Long Road", "Home Again"])
    #expect(lines.allSatisfy { $0.attributes["font-size"] == "28" })
    let normal = try Self.parse(SVGRenderer.svg(for: frame))
    #expect(normal.of("e", "text", class: "title").map(\.text) == ["The Very Long Road Home Again"])
    #expect(normal.of("e", "text", class: "title").first?.attributes["font-size"] == "20")
  }

  @Test("wrapping: at most two lines, cut with an ellipsis, every line within the width")
  func wrapping() {
    let lines = SVGRenderer.titleLines(
      "Supercalifragilistic expialidocious and more words", width: 120, fontSize: 28, wraps: true)
    #expect(lines.count == 2)
    let fits = Int(120 / (28 * SVGRenderer.averageAdvance))
    #expect(lines.allSatisfy { $0.count <= fits }, "\(lines)")
    #expect(lines.last?.hasSuffix("…") == true)
    #expect(SVGRenderer.titleLines("One", width: 120, fontSize: 28, wraps: true) == ["One"])
  }

  @Test("the renderer draws its files with the screen's display options")
  func rendererUsesDisplay() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "svg-display-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let renderer = try SVGRenderer(
      directory: directory.path, display: DisplayOptions(contrast: .high, textSize: .large))
    try renderer.render(Self.frame)
    let svg = try String(
      contentsOf: directory.appendingPathComponent("frame-000001.svg"), encoding: .utf8)
    #expect(svg.contains(##"fill="#000000""##) && svg.contains(#"font-size="28""#))
  }
}
