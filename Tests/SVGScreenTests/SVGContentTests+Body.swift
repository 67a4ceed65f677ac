import FocusEngine
import Foundation
import SVGScreen
import ScreenCore
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An item's body text in the SVG renderer: a page card (the template's) and hostile bodies
/// that must not reshape the card.
extension SVGContentTests {
  @Test("SVG: a tall card draws its body (three lines at most, clipped); a short card does not")
  func svgBody() throws {
    let body =
      "Sunny, 21 °C. Light wind from the west. " + String(repeating: "Clouds later. ", count: 40)
    var layout = ScreenFrames.page(body: body)
    layout.items[0].content.body = "not on a short card"
    let svg = SVGRenderer.svg(for: ScreenFrames.content(layout, focused: "page-weather"))
    let group = try #require(
      svg.range(of: #"<g class="body" clip-path="url(#body-clip-page-weather)">"#), "\(svg)")
    let end = try #require(svg.range(of: "</g>", range: group.upperBound..<svg.endIndex))
    let lines = svg[group.upperBound..<end.lowerBound].components(separatedBy: "</text>")
      .dropLast()
    #expect(lines.count == 3, "\(lines)")
    #expect(lines.first?.contains(">Sunny, 21 °C. Light wind") == true, "\(lines)")
    #expect(lines.last?.hasSuffix("…") == true, "the third line is cut: \(lines)")
    #expect(svg.contains(#"<clipPath id="body-clip-page-weather">"#))
    #expect(!svg.contains("not on a short card"))
  }

  @Test("SVG: a hostile body is escaped and cut; the document stays well formed")
  func svgHostileBody() throws {
    for body in ScreenFrames.hostileBodies + [#"<script>alert("x")</script> & <b>bold</b>"#] {
      let svg = SVGRenderer.svg(
        for: ScreenFrames.content(ScreenFrames.page(body: body), focused: "weather"))
      #expect(!svg.contains("<script") && !svg.contains("<b>") && !svg.contains("\u{1B}"))
      let parser = XMLParser(data: Data(svg.utf8))
      #expect(
        parser.parse(), "\(String(describing: parser.parserError)) for \(body.debugDescription)")
      let group = try #require(svg.range(of: #"<g class="body""#), "\(body.debugDescription)")
      let end = try #require(svg.range(of: "</g>", range: group.upperBound..<svg.endIndex))
      let texts = svg[group.upperBound..<end.lowerBound].components(separatedBy: "</text>")
      #expect(texts.count - 1 <= 3)
      // Each line fits the card's estimated width (1200 − 16 points at 20 × 0.62).
      let fits = Int((1200.0 - 16) / (20 * SVGRenderer.bodyScale * SVGRenderer.averageAdvance))
      for text in texts.dropLast() {
        let shown = text.split(separator: ">").last.map(String.init) ?? ""
        #expect(shown.count <= fits + 8, "\(shown.count) > \(fits): \(shown)")
      }
    }
  }
}
