import FocusEngine
import Foundation
import SVGScreen
import ScreenCore
import TerminalScreen
import TerminalUI
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// What the SVG and terminal renderers draw of an item's content: the example layout
/// (`examples/content.json`) and hostile texts.
@Suite("Item content in the SVG and terminal renderers")
struct ContentRenderingTests {
  /// The example layout, decoded and validated.
  static func example() throws -> Layout {
    let data = try Data(
      contentsOf: AssetDirectoryTests.root.appendingPathComponent("examples/content.json"))
    let layout = try JSONDecoder().decode(Layout.self, from: data)
    try layout.validate()
    return layout
  }

  /// A frame of `layout` with `focused` focused and the unavailable items unavailable.
  static func frame(_ layout: Layout, focused: String) -> ScreenFrame {
    var states: [String: FocusDisplayState] = [:]
    for item in layout.items where item.kind != .label {
      states[item.id] = item.id == focused ? .focused : item.available ? .unfocused : .unavailable
    }
    return ScreenFrame(
      screen: "main", epoch: 1, seq: 3, layout: layout, focused: focused, states: states,
      lastEvent: nil)
  }

  /// Posters with hostile content: markup, a control character, a wide badge.
  static let hostile = Layout(
    canvas: Size(width: 800, height: 400),
    items: [
      Item(
        id: "a", title: "A", frame: Rect(x: 20, y: 20, width: 300, height: 360),
        content: ItemContent(
          subtitle: "<b>1999</b> & \"more\"", badge: "<New & hot>", accent: "#ff8800")),
      Item(
        id: "b", title: "B", frame: Rect(x: 420, y: 20, width: 300, height: 360),
        content: ItemContent(subtitle: "tab\u{1B}[31mred", badge: "新作")),
    ])

  @Test("SVG: the image as a data: URI of the PNG, the subtitle, the badge and the accent")
  func svgContent() throws {
    let layout = try Self.example()
    let directory = NSTemporaryDirectory() + "tenfoot-svg-content-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let assets = try AssetDirectory(
      path: AssetDirectoryTests.root.appendingPathComponent("examples/assets").path)
    let renderer = try SVGRenderer(directory: directory, assets: assets)
    try renderer.render(Self.frame(layout, focused: "orbit"))
    let svg = try String(contentsOfFile: directory + "/frame-000001.svg", encoding: .utf8)
    let orbit = try Data(
      contentsOf: AssetDirectoryTests.root.appendingPathComponent(
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
    var layout = Self.hostile
    layout.items[0].content.image = "posters/a.png"
    layout.items[1].content.image = "https://images.example.com/b.png?size=2&x=1"
    let svg = SVGRenderer.svg(for: Self.frame(layout, focused: "a"))
    #expect(!svg.contains("data:image"))
    #expect(svg.contains(#"href="https://images.example.com/b.png?size=2&amp;x=1""#))
  }

  @Test("SVG: every content text is XML-escaped and the document stays well formed")
  func svgEscapes() throws {
    let svg = SVGRenderer.svg(for: Self.frame(Self.hostile, focused: "a"))
    #expect(svg.contains("&lt;b&gt;1999&lt;/b&gt; &amp; &quot;more&quot;"))
    #expect(svg.contains(">&lt;New &amp; hot&gt;</text>"))
    #expect(!svg.contains("<b>") && !svg.contains("\u{1B}"))
    #expect(svg.contains("tab\u{FFFD}[31mred"))
    let parser = XMLParser(data: Data(svg.utf8))
    #expect(parser.parse(), "\(String(describing: parser.parserError))")
  }

  @Test(
    "terminal: subtitles under titles and badges on the cards, at 80×24 and 160×48",
    arguments: [(80, 24), (160, 48)])
  func terminalContent(columns: Int, rows: Int) throws {
    let layout = try Self.example()
    let grid = TerminalRenderer.compose(
      Self.frame(layout, focused: "canyon"), columns: columns, rows: rows, colorMode: .truecolor)
    let text = grid.lines().joined(separator: "\n")
    #expect(text.contains("[New]"), "\(text)")
    #expect(text.contains("[Coming"), "the unavailable poster's badge (cut to fit):\n\(text)")
    let titleRow = try #require(grid.lines().firstIndex { $0.contains("Orbit") }, "\(text)")
    let subtitleRow = try #require(grid.lines().firstIndex { $0.contains("2031") }, "\(text)")
    #expect(subtitleRow == titleRow + 1, "the subtitle is on the line under the title:\n\(text)")
    if columns >= 160 {
      #expect(text.contains("2031 · Space drama") && text.contains("[Coming soon]"), "\(text)")
    }
  }

  @Test("terminal: the accent colours an unfocused card's border; the five states stay apart")
  func terminalAccent() throws {
    var layout = Self.hostile
    layout.items.append(
      Item(
        id: "c", title: "C", frame: Rect(x: 20, y: 390, width: 10, height: 10),
        content: ItemContent(accent: "#00ff00")))
    let frame = Self.frame(layout, focused: "b")
    let grid = TerminalRenderer.compose(frame, columns: 80, rows: 24, colorMode: .truecolor)
    let corner = try #require(
      (0..<grid.rows).lazy.compactMap { y in
        (0..<grid.columns).first { grid[$0, y].character == "┌" }.map { grid[$0, y] }
      }.first)
    #expect(corner.style.foreground == RGB(0xFF, 0x88, 0x00), "a's border is its accent")
    // Focused, the same card keeps the palette's ring: double lines on the focus fill.
    let focused = TerminalRenderer.compose(
      Self.frame(layout, focused: "a"), columns: 80, rows: 24, colorMode: .truecolor)
    let ring = try #require(
      (0..<focused.rows).lazy.compactMap { y in
        (0..<focused.columns).first { focused[$0, y].character == "╔" }.map { focused[$0, y] }
      }.first)
    #expect(ring.style == TerminalPalette.normal.focusedBorder)
    // High contrast ignores the accent.
    let high = TerminalRenderer.compose(
      frame, columns: 80, rows: 24, colorMode: .truecolor,
      display: DisplayOptions(reduceMotion: false, contrast: .high, textSize: .normal))
    let highCorner = try #require(
      (0..<high.rows).lazy.compactMap { y in
        (0..<high.columns).first { high[$0, y].character == "┌" }.map { high[$0, y] }
      }.first)
    #expect(highCorner.style == TerminalPalette.high.unfocusedBorder)
  }

  @Test("terminal: hostile content is filtered and measured like titles")
  func terminalHostile() throws {
    let grid = TerminalRenderer.compose(
      Self.frame(Self.hostile, focused: "a"), columns: 80, rows: 24, colorMode: .truecolor)
    let text = grid.lines().joined(separator: "\n")
    #expect(!text.contains("\u{1B}"))
    #expect(text.contains("[新作]"), "\(text)")
    #expect(text.contains("[<New & hot>]"), "\(text)")
    for line in grid.lines() { #expect(TerminalText.width(line) <= 80, "\(line)") }
  }
}
