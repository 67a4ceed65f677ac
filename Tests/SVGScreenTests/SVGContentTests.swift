import FocusEngine
import Foundation
import SVGScreen
import ScreenCore
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// What the SVG renderer draws of an item's content: the example layout
/// (`examples/content.json`) and hostile texts.
@Suite("Item content in SVG")
struct SVGContentTests {
  @Test("SVG: the image as a data: URI of the PNG, the subtitle, the badge and the accent")
  func svgContent() throws {
    let layout = try ScreenFrames.contentExample()
    let directory = NSTemporaryDirectory() + "tenfoot-svg-content-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let assets = try AssetDirectory(
      path: URL(fileURLWithPath: repositoryRoot()).appendingPathComponent("examples/assets").path)
    let renderer = try SVGRenderer(directory: directory, assets: assets)
    try renderer.render(ScreenFrames.content(layout, focused: "orbit"))
    let svg = try String(contentsOfFile: directory + "/frame-000001.svg", encoding: .utf8)
    let orbit = try Data(
      contentsOf: URL(fileURLWithPath: repositoryRoot()).appendingPathComponent(
        "examples/assets/posters/orbit.png"))
    #expect(svg.contains(#"href="data:image/png;base64,\#(orbit.base64EncodedString())""#))
    #expect(svg.components(separatedBy: "data:image/png;base64,").count - 1 == 4)
    #expect(svg.contains(#"class="subtitle""#) && svg.contains(">2031 · Space drama</text>"))
    #expect(svg.contains(">Coming soon</text>"), "the unavailable poster's badge")
    #expect(svg.contains(">New</text>") && svg.contains(">4K</text>"))
    #expect(svg.contains(#"class="accent""#) && svg.contains(##"fill="#ffc450""##))
    #expect(!svg.contains("COMING SOON"), "the badge is the item's words, not a fixed text")
    #expect(svg.contains(#"preserveAspectRatio="xMidYMid slice""#))
  }

  @Test("SVG: without an asset directory a relative image is not drawn; https: is an href")
  func svgWithoutAssets() throws {
    var layout = ScreenFrames.hostileContent
    layout.items[0].content.image = "posters/a.png"
    layout.items[1].content.image = "https://images.example.com/b.png?size=2&x=1"
    let svg = SVGRenderer.svg(for: ScreenFrames.content(layout, focused: "a"))
    #expect(!svg.contains("data:image"))
    #expect(svg.contains(#"href="https://images.example.com/b.png?size=2&amp;x=1""#))
  }

  @Test("SVG: every content text is XML-escaped and the document stays well formed")
  func svgEscapes() throws {
    let svg = SVGRenderer.svg(for: ScreenFrames.content(ScreenFrames.hostileContent, focused: "a"))
    #expect(svg.contains("&lt;b&gt;1999&lt;/b&gt; &amp; &quot;more&quot;"))
    #expect(svg.contains(">&lt;New &amp; hot&gt;</text>"))
    #expect(!svg.contains("<b>") && !svg.contains("\u{1B}"))
    #expect(svg.contains("tab\u{FFFD}[31mred"))
    let parser = XMLParser(data: Data(svg.utf8))
    #expect(parser.parse(), "\(String(describing: parser.parserError))")
  }
}
