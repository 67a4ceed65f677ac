import FocusEngine
import SVGScreen
import ScreenCore
import TerminalScreen
import Testing

/// The SVG and terminal renderers draw only the visible window of a virtual group.
@Suite("Virtual groups in the renderers")
struct VirtualRenderingTests {
  /// A row of 1,000,000 posters 300 wide, 40 apart, in a 1920-wide scrolling viewport,
  /// scrolled to show items 500,000 to 500,005; item 500,002 focused.
  static func frame() -> ScreenFrame {
    let layout = Layout(
      items: [],
      groups: [
        Group(
          id: "rail", scroll: .horizontal, viewport: Rect(x: 0, y: 0, width: 1920, height: 1080),
          virtual: VirtualItems(
            count: 1_000_000, itemSize: Size(width: 300, height: 400),
            spacing: Size(width: 40, height: 0), titlePrefix: "Title "))
      ])
    var frame = ScreenFrame(
      screen: "main", epoch: 1, seq: 3, layout: layout, focused: "rail#500002",
      states: ["rail#500002": .focused])
    frame.scroll = ["rail": Point(x: 500_000 * 340, y: 0)]
    return frame
  }

  @Test("the drawn items are the window's, with placeholder titles and scrolled frames")
  func window() throws {
    let frame = Self.frame()
    let ids = frame.drawnItems.map(\.id)
    #expect(ids == (500_000...500_005).map { "rail#\($0)" })
    #expect(frame.drawnItems.first?.title == "Title 500001")
    let shown = try #require(frame.presentedFrames()["rail#500002"])
    #expect(shown == Rect(x: 680, y: 0, width: 300, height: 400))
  }

  @Test("a virtual group's window: its indices in view and the scrolling around it, summed")
  func windows() {
    var frame = Self.frame()
    #expect(
      frame.virtualWindows() == [
        VirtualWindow(
          group: "rail", shift: Point(x: 500_000 * 340, y: 0), indices: Array(500_000...500_005))
      ])
    // The rail inside a page scrolled 500 down: the page's offset adds to the rail's.
    frame.layout.groups = [
      Group(
        id: "page", groups: frame.layout.groups, scroll: .vertical,
        viewport: Rect(x: 0, y: 0, width: 1920, height: 1080))
    ]
    frame.scroll["page"] = Point(x: 0, y: 500)
    #expect(
      frame.virtualWindows() == [
        VirtualWindow(
          group: "rail", shift: Point(x: 500_000 * 340, y: 500), indices: Array(500_000...500_005))
      ])
  }

  @Test("a window carries the supplied content of the items in view only")
  func windowContent() throws {
    var frame = Self.frame()
    let supplied = Dictionary(
      uniqueKeysWithValues: (499_990..<500_003).map {
        ($0, VirtualContent(title: "Movie \($0 + 1)", available: $0 != 500_001))
      })
    frame.layout.groups[0].virtual?.content = supplied
    let window = try #require(frame.virtualWindows().first)
    #expect(window.indices == Array(500_000...500_005))
    // In view and supplied: 500,000 to 500,002; 500,003 to 500,005 keep their placeholders.
    #expect(window.content == supplied.filter { (500_000...500_002).contains($0.key) })
  }

  @Test("SVG draws the visible cards only, the focused one by its title")
  func svg() {
    let svg = SVGRenderer.svg(for: Self.frame())
    #expect(svg.contains("Title 500003"))
    #expect(!svg.contains("Title 500000<") && !svg.contains("Title 500007"))
  }

  @Test("the terminal draws the visible cards only")
  func terminal() {
    let text = TerminalRenderer.compose(
      Self.frame(), columns: 120, rows: 30, colorMode: .monochrome
    )
    .lines().joined(separator: "\n")
    #expect(text.contains("Title 500003"), "\(text)")
    #expect(!text.contains("Title 500007"), "\(text)")
  }
}
