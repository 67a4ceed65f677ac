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

/// An item's body text in the terminal and SVG renderers: a page card (the template's) and
/// hostile bodies that must not reshape the card.
extension ContentRenderingTests {
  /// The template's page: a menu item and a tall card with a body, on the default canvas.
  static func page(body: String, subtitle: String? = nil) -> Layout {
    Layout(items: [
      Item(
        id: "weather", title: "Weather", frame: Rect(x: 80, y: 120, width: 420, height: 100)),
      Item(
        id: "page-weather", title: "Weather", frame: Rect(x: 600, y: 120, width: 1200, height: 600),
        content: ItemContent(subtitle: subtitle, body: body)),
    ])
  }

  /// Hostile bodies: escapes and controls, bidirectional overrides, a word far wider than any
  /// card, wide characters, combining marks piled up, line and paragraph separators.
  static let hostileBodies = [
    "\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mred\r\nnext\u{9B}1m",
    "\u{202E}txet desrever\u{202C} \u{2067}isolated\u{2069} end",
    String(repeating: "W", count: 500),
    String(repeating: "新作", count: 200),
    "e" + String(repeating: "\u{301}", count: 40) + " " + String(repeating: "a\u{200D}", count: 90),
    "one\u{2028}two\u{2029}three\u{85}four\t\u{0}five",
  ]

  @Test("terminal: the page card shows its body under the title, wrapped inside the border")
  func terminalBody() throws {
    let body = "Sunny, 21 °C. Light wind from the west, clouds later in the day."
    let grid = TerminalRenderer.compose(
      Self.frame(Self.page(body: body), focused: "page-weather"), columns: 80, rows: 24,
      colorMode: .truecolor)
    let lines = grid.lines()
    let text = lines.joined(separator: "\n")
    let titleRow = try #require(
      lines.firstIndex { $0.contains("Weather") && $0.contains("║") }, "\(text)")
    let bodyRow = try #require(lines.firstIndex { $0.contains("Sunny, 21 °C.") }, "\(text)")
    #expect(bodyRow > titleRow, "the body is under the title:\n\(text)")
    #expect(text.contains("from the west"), "the body wraps onto the next rows:\n\(text)")
    // Inside the card: the body's rows keep the ring's glyphs at both ends.
    let left = try #require(lines[bodyRow].firstIndex(of: "║"), "\(lines[bodyRow])")
    let sunny = try #require(lines[bodyRow].range(of: "Sunny"))
    #expect(left < sunny.lowerBound && lines[bodyRow].filter { $0 == "║" }.count == 2)
  }

  @Test("terminal: a long body ends in … on the card's last row; line breaks start paragraphs")
  func terminalBodyCut() throws {
    let long = "First paragraph.\nSecond " + String(repeating: "word ", count: 400) + "END"
    let grid = TerminalRenderer.compose(
      Self.frame(Self.page(body: long), focused: "weather"), columns: 80, rows: 24,
      colorMode: .truecolor)
    let lines = grid.lines()
    let text = lines.joined(separator: "\n")
    let first = try #require(lines.firstIndex { $0.contains("First paragraph.") }, "\(text)")
    #expect(lines[first + 1].contains("Second word"), "a paragraph per line break:\n\(text)")
    #expect(!text.contains("END"), "\(text)")
    let last = try #require(lines.lastIndex { $0.contains("word") }, "\(text)")
    #expect(lines[last].contains("…"), "the last row says text is left over:\n\(text)")
    #expect(lines[last + 1].contains("└"), "the body fills the card to its border:\n\(text)")
  }

  @Test(
    "terminal: a hostile body is filtered and cut like a title; the borders stay where they are",
    arguments: hostileBodies.indices)
  func terminalHostileBody(index: Int) throws {
    let body = Self.hostileBodies[index]
    for (columns, rows) in [(80, 24), (40, 12), (160, 48)] {
      for focused in ["weather", "page-weather"] {
        let plain = TerminalRenderer.compose(
          Self.frame(Self.page(body: ""), focused: focused), columns: columns, rows: rows,
          colorMode: .truecolor)
        let grid = TerminalRenderer.compose(
          Self.frame(Self.page(body: body, subtitle: body), focused: focused), columns: columns,
          rows: rows, colorMode: .truecolor)
        let text = grid.lines().joined(separator: "\n")
        for y in 0..<rows {
          #expect(TerminalText.width(grid.rowText(y)) == columns, "row \(y):\n\(text)")
          for x in 0..<columns where "┌┐└┘─│╔╗╚╝═║▒".contains(plain[x, y].character) {
            #expect(grid[x, y].character == plain[x, y].character, "(\(x), \(y)) moved:\n\(text)")
          }
          for x in 0..<columns {
            #expect(
              !grid[x, y].character.unicodeScalars.contains(where: TerminalBytes.isTerminalControl)
            )
          }
        }
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .format })
        #expect(
          TerminalBytes.onlyCursorAndStyle(grid.ansiDiff(from: plain, colorMode: .truecolor)))
      }
    }
  }

  @Test("SVG: a tall card draws its body (three lines at most, clipped); a short card does not")
  func svgBody() throws {
    let body =
      "Sunny, 21 °C. Light wind from the west. " + String(repeating: "Clouds later. ", count: 40)
    var layout = Self.page(body: body)
    layout.items[0].content.body = "not on a short card"
    let svg = SVGRenderer.svg(for: Self.frame(layout, focused: "page-weather"))
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
    for body in Self.hostileBodies + [#"<script>alert("x")</script> & <b>bold</b>"#] {
      let svg = SVGRenderer.svg(for: Self.frame(Self.page(body: body), focused: "weather"))
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
