import Foundation
import Testing

@testable import FocusEngine

@Suite("Item content: subtitle, body, badge, image, accent")
struct ItemContentTests {
  func decode(_ json: String) throws -> Layout {
    try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
  }

  func item(_ content: ItemContent) -> Layout {
    Layout(items: [Item(id: "a", frame: Rect(x: 0, y: 0, width: 10, height: 10), content: content)])
  }

  @Test("the JSON fields decode into the item's content, and unset ones stay nil")
  func decodes() throws {
    let layout = try decode(
      """
      {"items": [{"id": "a", "frame": [0, 0, 10, 10], "subtitle": "2021 · 2 h 35 min",
        "body": "A noble family…", "badge": "New", "image": "posters/dune.png",
        "accent": "#C8A2FF"}, {"id": "b", "frame": [20, 0, 10, 10]}]}
      """)
    #expect(
      layout.items[0].content
        == ItemContent(
          subtitle: "2021 · 2 h 35 min", body: "A noble family…", badge: "New",
          image: "posters/dune.png", accent: "#C8A2FF"))
    #expect(layout.items[1].content.isEmpty)
    try layout.validate()
    #expect(layout.items[0].content.accentRGB! == (0xC8, 0xA2, 0xFF))
  }

  @Test(
    "image references that could leave the asset directory are refused, with the reason",
    arguments: [
      ("../etc/passwd", "no . or .. parts"), ("/etc/passwd", "no leading /"),
      ("posters//a.png", "no //"), ("posters/./a.png", "no . or .. parts"),
      ("file:///etc/passwd", "https: URL"), ("http://example.com/a.png", "https: URL"),
      ("posters\\a.png", "A-Z a-z 0-9"), ("poster s.png", "A-Z a-z 0-9"),
      ("https://exa mple.com/a.png", "without spaces"), ("https://", "printable ASCII"),
      ("javascript:alert(1)", "https: URL"),
    ])
  func imageRefused(image: String, reason: String) {
    #expect(throws: LayoutError.self) { try item(ItemContent(image: image)).validate() }
    do {
      try item(ItemContent(image: image)).validate()
    } catch {
      #expect(error.path == "items[0].image")
      #expect(error.reason.contains(reason), "\(error.reason)")
    }
  }

  @Test("relative paths and https URLs are image references")
  func imageAccepted() throws {
    for image in ["a.png", "posters/row-1/dune_2021.webp", "https://img.example/p/1.jpg?w=300"] {
      try item(ItemContent(image: image)).validate()
    }
  }

  @Test("accents are #rrggbb only")
  func accent() throws {
    try item(ItemContent(accent: "#00ff7f")).validate()
    for bad in ["red", "#fff", "#00ff7g", "00ff7f0", "#00ff7f00"] {
      #expect(throws: LayoutError.self, "\(bad)") { try item(ItemContent(accent: bad)).validate() }
    }
  }

  @Test("subtitle, body and badge follow the text rules like a title")
  func textRules() {
    for (field, content) in [
      ("subtitle", ItemContent(subtitle: "a\u{1B}[2J")),
      ("body", ItemContent(body: String(repeating: "x", count: Layout.maximumTextLength + 1))),
      ("badge", ItemContent(badge: "\u{202E}evil")),
    ] {
      do {
        try item(content).validate()
        Issue.record("\(field) accepted")
      } catch {
        #expect(error.path == "items[0].\(field)")
      }
    }
  }
}
