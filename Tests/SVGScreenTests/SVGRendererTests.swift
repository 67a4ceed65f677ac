import FocusEngine
import Foundation
import SVGScreen
import ScreenCore
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite("SVG renderer")
struct SVGRendererTests {
  /// Five items, one per display state; `a` has two parallax layers and a tilt.
  static let layout = Layout(
    canvas: Size(width: 800, height: 300),
    items: [
      Item(
        id: "a", title: "Alpha & <Omega>", frame: Rect(x: 20, y: 40, width: 140, height: 200),
        layers: [ParallaxLayer(name: "back", depth: 0), ParallaxLayer(name: "front", depth: 1)]),
      Item(id: "b", title: "Beta", frame: Rect(x: 180, y: 40, width: 140, height: 200)),
      Item(id: "c", title: "Gamma", frame: Rect(x: 340, y: 40, width: 140, height: 200)),
      Item(
        id: "d", title: "Delta", frame: Rect(x: 500, y: 40, width: 140, height: 200),
        available: false, content: ItemContent(badge: "Coming soon")),
      Item(id: "e", title: "Echo", frame: Rect(x: 660, y: 40, width: 120, height: 200)),
    ])

  static func frame(rotateY: Double) -> ScreenFrame {
    var frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 9, layout: layout, focused: "a",
      states: [
        "a": .focused, "b": .highlighted, "c": .selected, "d": .unavailable, "e": .unfocused,
      ],
      lastEvent: "right → a")
    frame.parallax = Parallax(
      item: "a", rotateX: 0, rotateY: rotateY, scale: Parallax.focusedScale,
      translate: [Point(x: 1, y: 0), Point(x: 4, y: 0)], shadow: Parallax.shadow(for: .focused),
      specular: Point(x: 0.3, y: 0.5))
    return frame
  }

  /// Every element's attributes, by the `id` of the `g` they belong to.
  final class Groups: NSObject, XMLParserDelegate {
    var classes: [String: String] = [:]
    var transforms: [String: String] = [:]
    var texts: [String] = []
    private var text = ""

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      if name == "g", let id = attributes["id"] {
        classes[id] = attributes["class"]
        transforms[id] = attributes["transform"]
      }
      text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(
      _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
    ) {
      if name == "text" { texts.append(text) }
    }
  }

  static func parse(_ svg: String) throws -> Groups {
    let parser = XMLParser(data: Data(svg.utf8))
    let groups = Groups()
    parser.delegate = groups
    #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
    return groups
  }

  @Test("each of the five states is drawn with its class and mark, and the text is escaped")
  func states() throws {
    let groups = try Self.parse(SVGRenderer.svg(for: Self.frame(rotateY: 3)))
    #expect(
      groups.classes == [
        "a": "item focused", "b": "item highlighted", "c": "item selected",
        "d": "item unavailable", "e": "item unfocused",
      ])
    #expect(groups.texts.contains("Alpha & <Omega>"))
    #expect(groups.texts.contains("♥"))
    #expect(groups.texts.contains("Coming soon"), "the unavailable item's own badge")
    #expect(groups.texts.contains { $0.contains("rotateY 3.00°") })
    #expect(groups.transforms["b"]?.contains("scale(0.95)") == true)
    #expect(groups.transforms["e"]?.contains("scale(1)") == true)
  }

  @Test("a title with control characters keeps the document well formed")
  func controls() throws {
    var frame = Self.frame(rotateY: 0)
    frame.layout.items[1].title = "Esc\u{1B}]0;HACKED\u{07}\u{1B}[2J\u{9B}"
    let svg = SVGRenderer.svg(for: frame)
    #expect(!svg.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    let groups = try Self.parse(svg)
    #expect(groups.texts.contains("Esc\u{FFFD}]0;HACKED\u{FFFD}\u{FFFD}[2J\u{FFFD}"))
  }

  @Test("the focused item is scaled and skewed with the tilt, and at rest it is only scaled")
  func tilt() throws {
    let tilted = try Self.parse(SVGRenderer.svg(for: Self.frame(rotateY: 4)))
    let transform = try #require(tilted.transforms["a"])
    #expect(transform.contains("scale(1.1)"), "\(transform)")
    #expect(transform.contains("skewY(3.2)"), "\(transform)")
    let rest = try Self.parse(SVGRenderer.svg(for: Self.frame(rotateY: 0)))
    #expect(rest.transforms["a"]?.contains("skewY(0)") == true)
  }

  @Test("the renderer writes one numbered file per frame")
  func files() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "svg-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let renderer = try SVGRenderer(directory: directory.path)
    try renderer.render(Self.frame(rotateY: 1))
    try renderer.render(Self.frame(rotateY: 2))
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(names == ["frame-000001.svg", "frame-000002.svg"])
    let second = try String(
      contentsOf: directory.appendingPathComponent(names[1]), encoding: .utf8)
    #expect(second.contains("skewY(1.6)"))
  }

  @Test("a focus-trapping group holding focus is drawn above a scrim, the rest below it")
  func modal() throws {
    var frame = Self.frame(rotateY: 0)
    frame.layout.groups = [Group(id: "detail", items: ["a", "b"], trapsFocus: true)]
    let svg = SVGRenderer.svg(for: frame)
    let scrim = try #require(svg.range(of: #"class="scrim""#))
    for id in ["a", "b"] {
      let at = try #require(svg.range(of: #"id="\#(id)""#))
      #expect(at.lowerBound > scrim.lowerBound, "\(id) should be above the scrim")
    }
    for id in ["c", "d", "e"] {
      let at = try #require(svg.range(of: #"id="\#(id)""#))
      #expect(at.lowerBound < scrim.lowerBound, "\(id) should be below the scrim")
    }
    frame.focused = "e"
    #expect(!SVGRenderer.svg(for: frame).contains("scrim"))
  }
}
