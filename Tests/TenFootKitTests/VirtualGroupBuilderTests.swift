import Foundation
import TenFootKit
import Testing

/// `Group.virtual`: the row of docs/apps.md ("Catalogs of any size") as the layout format
/// declares it, and its scrolling inferred from its arrangement.
@Suite("TenFootKit's virtual group builder")
struct VirtualGroupBuilderTests {
  /// docs/apps.md's row of a million titles (``AsyncAppTests`` runs it against a broker).
  static let titles = Group.virtual(
    "titles", count: 1_000_000, itemSize: Size(width: 300, height: 170),
    spacing: Size(width: 40, height: 0), origin: Point(x: 60, y: 400), titlePrefix: "Title ",
    viewport: Rect(x: 0, y: 380, width: 1920, height: 210))
  static let catalog = Layout(items: [], groups: [titles], initialFocus: "titles#0")

  @Test("the docs' row is the layout format's virtual group, valid, and item i is titles#i")
  func docsRow() throws {
    let json = #"""
      {"canvas": {"width": 1920, "height": 1080}, "initialFocus": "titles#0", "items": [],
       "groups": [{"id": "titles", "scroll": "horizontal", "viewport": [0, 380, 1920, 210],
         "virtual": {"count": 1000000, "itemSize": {"width": 300, "height": 170},
           "spacing": {"width": 40, "height": 0}, "origin": {"x": 60, "y": 400},
           "titlePrefix": "Title "}}]}
      """#
    let decoded = try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
    #expect(Self.catalog == decoded)
    try Self.catalog.validate()
    let virtual = try #require(Self.titles.virtual)
    #expect(Self.titles.items.isEmpty)
    #expect(virtual.title(at: 2) == "Title 3")
    #expect(virtual.frame(at: 2) == Rect(x: 740, y: 400, width: 300, height: 170))
    #expect(VirtualItems.id(group: "titles", index: 2) == "titles#2")
  }

  @Test(
    "with a viewport it scrolls along its arrangement unless told otherwise; without, not at all",
    arguments: [
      (VirtualArrangement.row, nil, ScrollAxis.horizontal),
      (.column, nil, .vertical),
      (.grid(columns: 1000), nil, .both),
      (.row, .vertical, .vertical),
    ] as [(VirtualArrangement, ScrollAxis?, ScrollAxis)])
  func scrolling(arrangement: VirtualArrangement, asked: ScrollAxis?, scrolls: ScrollAxis) throws {
    let viewport = Rect(x: 0, y: 0, width: 1920, height: 1080)
    let group = Group.virtual(
      "g", count: 10, itemSize: Size(width: 100, height: 100), arrangement: arrangement,
      viewport: viewport, scroll: asked)
    #expect(group.scroll == scrolls)
    #expect(group.viewport == viewport)
    #expect(group.virtual?.arrangement == arrangement)
    let still = Group.virtual(
      "g", count: 10, itemSize: Size(width: 100, height: 100), arrangement: arrangement)
    #expect(still.scroll == nil && still.viewport == nil)
    try Layout(items: [], groups: [group]).validate()
  }

  @Test("sizes: a row of programmes of their own lengths, as docs/apps.md builds it")
  func sizes() throws {
    let bbc = Group.virtual(
      "bbc", count: 7, itemSize: Size(width: 1, height: 100),
      sizes: [
        SizeRun(count: 2, length: 300), SizeRun(count: 1, length: 800),
        SizeRun(count: 4, length: 150),
      ])
    try Layout(items: [], groups: [bbc]).validate()
    #expect(bbc.virtual?.frame(at: 2) == Rect(x: 600, y: 0, width: 800, height: 100))
    #expect(bbc.virtual?.frame(at: 6) == Rect(x: 1850, y: 0, width: 150, height: 100))
  }
}
