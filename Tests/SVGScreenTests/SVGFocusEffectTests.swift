import FocusEngine
import ScreenCore
import TestSupport
import Testing

@testable import SVGScreen

/// The halo and highlight focus effects in the SVG renderer.
@Suite("Focus effects in SVG")
struct SVGFocusEffectTests {
  @Test("SVG: a halo follows the corner radius, and the card is neither scaled nor ringed")
  func svgHalo() throws {
    var frame = ScreenFrames.focusEffect(.halo, radius: 20)
    // The broker still sends the lift's numbers; a halo ignores them.
    frame.parallax = Parallax(
      item: "a", rotateX: 2, rotateY: 3, scale: Parallax.focusedScale, translate: [],
      shadow: Parallax.shadow(for: .focused), specular: Point(x: 0.3, y: 0.5))
    let svg = SVGRenderer.svg(for: frame)
    let halo = try #require(Self.element(#"class="halo""#, in: svg))
    #expect(halo.contains(#"x="54" y="54" width="192" height="132" rx="26""#), "\(halo)")
    #expect(halo.contains(#"stroke="\#(SVGRenderer.accent)""#) && halo.contains(#"fill="none""#))
    let card = try #require(Self.element(#"id="a""#, in: svg))
    #expect(card.contains("scale(1)"), "\(card)")
    #expect(svg.contains(#"rx="20" fill="#))
    #expect(!svg.contains(#"class="ring""#), "the halo replaces the ring")
    #expect(!svg.contains("skewY(2.4)") && !svg.contains("scale 1.10"), "no tilt, no lift")
  }

  @Test("SVG: highlight colours the title with the accent; lift keeps the white ring")
  func svgHighlight() throws {
    let svg = SVGRenderer.svg(for: ScreenFrames.focusEffect(.highlight))
    #expect(svg.contains(#"fill="\#(SVGRenderer.accent)">Alpha"#))
    #expect(svg.contains(##"fill="#141821""##), "a dark card under the accent text")
    #expect(!svg.contains(#"class="halo""#))
    let lift = SVGRenderer.svg(for: ScreenFrames.focusEffect(nil))
    #expect(lift.contains(#"class="ring""#) && lift.contains(##"stroke="#ffffff""##))
    #expect(!lift.contains(#"class="halo""#))
  }

  /// The opening tag that contains `marker`.
  static func element(_ marker: String, in svg: String) -> String? {
    guard let at = svg.range(of: marker) else { return nil }
    let start = svg[..<at.lowerBound].lastIndex(of: "<") ?? at.lowerBound
    let end = svg[at.upperBound...].firstIndex(of: ">") ?? svg.endIndex
    return String(svg[start..<end])
  }
}
