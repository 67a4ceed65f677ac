import FocusEngine
import Foundation
import Testing

@testable import SVGScreen
@testable import ScreenCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The SVG renderer draws the pointer as the page does: a circle, an I-beam over a text field,
/// a platter of the item's shape behind it under `highlight`, nothing under `lift` (the item
/// lifts, with the tvOS scale), a scaled item under `hover`, nothing when hidden.
@Suite("SVG pointer")
struct SVGPointerTests {
  /// A poster `p` (with a halo focus effect, so only the pointer's lift lifts it), a small
  /// button `b` (corner radius 12) and a text field `t`.
  static let layout = Layout(
    canvas: Size(width: 800, height: 400),
    items: [
      Item(
        id: "p", title: "Poster", frame: Rect(x: 20, y: 100, width: 200, height: 280),
        focusEffect: .halo),
      Item(
        id: "b", title: "OK", frame: Rect(x: 300, y: 40, width: 160, height: 60),
        cornerRadius: 12),
      Item(
        id: "t", title: "Search", frame: Rect(x: 300, y: 200, width: 400, height: 80),
        kind: .textField),
    ])

  static func frame(_ pointer: PointerPresentation?, focused: String = "p") -> ScreenFrame {
    var states: [String: FocusDisplayState] = ["p": .unfocused, "b": .unfocused, "t": .unfocused]
    states[focused] = .focused
    var frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 3, layout: layout, focused: focused, states: states)
    frame.pointer = pointer
    return frame
  }

  /// Every element with a `class` attribute: its name and attributes, in document order.
  final class Elements: NSObject, XMLParserDelegate {
    var all: [(name: String, attributes: [String: String])] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      if attributes["class"] != nil { all.append((name, attributes)) }
    }

    func pointer() -> (name: String, attributes: [String: String])? {
      all.first { $0.attributes["class"]?.split(separator: " ").first == "pointer" }
    }

    func index(of id: String) -> Int? { all.firstIndex { $0.attributes["id"] == id } }
  }

  static func parse(_ frame: ScreenFrame) throws -> Elements {
    let svg = SVGRenderer.svg(for: frame)
    let parser = XMLParser(data: Data(svg.utf8))
    let elements = Elements()
    parser.delegate = elements
    #expect(parser.parse(), "the SVG is well formed: \(String(describing: parser.parserError))")
    return elements
  }

  static func pointer(
    x: Double, y: Double, visible: Bool = true, shape: String = PointerShape.circle,
    effect: PointerEffectStyle = .none, target: String? = nil
  ) -> PointerPresentation {
    PointerPresentation(
      position: Point(x: x, y: y), visible: visible, shape: shape, effect: effect, target: target)
  }

  @Test("a visible pointer with no target is a circle at its position; hidden, none is drawn")
  func circle() throws {
    let shown = try Self.parse(Self.frame(Self.pointer(x: 250, y: 350)))
    let mark = try #require(shown.pointer(), "a pointer element")
    #expect(mark.name == "circle")
    #expect(mark.attributes["class"] == "pointer circle")
    #expect(mark.attributes["cx"] == "250" && mark.attributes["cy"] == "350", "\(mark)")
    #expect(mark.attributes["r"] == "18", "\(mark)")
    let hidden = try Self.parse(Self.frame(Self.pointer(x: 250, y: 350, visible: false)))
    #expect(hidden.pointer() == nil)
    #expect(try Self.parse(Self.frame(nil)).pointer() == nil)
  }

  @Test("over a text field the pointer is an I-beam")
  func iBeam() throws {
    let elements = try Self.parse(
      Self.frame(
        Self.pointer(x: 500, y: 240, shape: PointerShape.iBeam, target: "t"), focused: "t"))
    let mark = try #require(elements.pointer())
    #expect(mark.name == "rect" && mark.attributes["class"] == "pointer ibeam", "\(mark)")
    #expect(mark.attributes["width"] == "4" && mark.attributes["height"] == "44", "\(mark)")
  }

  @Test("under highlight the pointer is a platter of the item's shape, drawn behind the item")
  func platter() throws {
    // The button's centre (380, 70) moved by the gentle parallax.
    let elements = try Self.parse(
      Self.frame(
        Self.pointer(x: 382, y: 71, shape: PointerShape.item, effect: .highlight, target: "b"),
        focused: "b"))
    let mark = try #require(elements.pointer())
    #expect(mark.attributes["class"] == "pointer platter", "\(mark)")
    #expect(mark.attributes["width"] == "180" && mark.attributes["height"] == "80", "\(mark)")
    #expect(mark.attributes["x"] == "292" && mark.attributes["y"] == "31", "\(mark)")
    #expect(mark.attributes["rx"] == "22", "the item's corner radius plus the padding: \(mark)")
    let platterIndex = try #require(
      elements.all.firstIndex { $0.attributes["class"] == "pointer platter" })
    let itemIndex = try #require(elements.index(of: "b"))
    #expect(platterIndex < itemIndex, "the platter is drawn before (behind) the button")
    #expect(elements.all[itemIndex].attributes["class"] == "item focused ptr-highlight")
  }

  @Test(
    "under lift the pointer is not drawn and the poster lifts although its focus effect is the halo"
  )
  func lift() throws {
    let lifted = try Self.parse(
      Self.frame(Self.pointer(x: 120, y: 240, effect: .lift, target: "p")))
    #expect(lifted.pointer() == nil, "the pointer fades under the lifted item")
    let item = try #require(lifted.index(of: "p").map { lifted.all[$0] })
    #expect(item.attributes["class"] == "item focused ptr-lift")
    let scale = "scale(\(SVGRenderer.n(Parallax.scale(for: .focused))))"
    #expect(item.attributes["transform"]?.contains(scale) == true, "\(item)")
    #expect(!lifted.all.contains { $0.attributes["class"] == "halo" }, "no halo while lifted")
    // Without the pointer the same focused poster shows its halo, unscaled.
    let halo = try Self.parse(Self.frame(nil))
    #expect(halo.all.contains { $0.attributes["class"] == "halo" })
    #expect(
      halo.index(of: "p").map { halo.all[$0].attributes["transform"]?.contains("scale(1)") }
        == true)
  }

  @Test("under hover the item scales by the hover scale and the pointer keeps its circle")
  func hover() throws {
    let elements = try Self.parse(
      Self.frame(Self.pointer(x: 380, y: 70, effect: .hover, target: "b"), focused: "b"))
    let item = try #require(elements.index(of: "b").map { elements.all[$0] })
    #expect(item.attributes["class"] == "item focused ptr-hover")
    let scale = SVGRenderer.n(Parallax.scale(for: .focused) * SVGRenderer.hoverScale)
    #expect(item.attributes["transform"]?.contains("scale(\(scale))") == true, "\(item)")
    #expect(elements.pointer()?.name == "circle")
    #expect(elements.all.contains { $0.attributes["class"] == "hover-tint" }, "the hover tint")
    let plain = try Self.parse(Self.frame(nil, focused: "b"))
    #expect(!plain.all.contains { $0.attributes["class"] == "hover-tint" })
  }
}
