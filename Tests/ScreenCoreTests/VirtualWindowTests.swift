import FocusEngine
import ScreenCore
import TestSupport
import Testing

/// A virtual group's window in a frame: the items in view, their frames and content, and the
/// scrolling around them (what every renderer draws).
@Suite("Virtual groups: the window in view")
struct VirtualWindowTests {
  @Test("the drawn items are the window's, with placeholder titles and scrolled frames")
  func window() throws {
    let frame = ScreenFrames.virtualRail()
    let ids = frame.drawnItems.map(\.id)
    #expect(ids == (500_000...500_005).map { "rail#\($0)" })
    #expect(frame.drawnItems.first?.title == "Title 500001")
    let shown = try #require(frame.presentedFrames()["rail#500002"])
    #expect(shown == Rect(x: 680, y: 0, width: 300, height: 400))
  }

  @Test("a virtual group's window: its indices in view and the scrolling around it, summed")
  func windows() {
    var frame = ScreenFrames.virtualRail()
    let frames = (500_000...500_005).map {
      Rect(x: Double($0) * 340, y: 0, width: 300, height: 400)
    }
    #expect(
      frame.virtualWindows() == [
        VirtualWindow(
          group: "rail", shift: Point(x: 500_000 * 340, y: 0), indices: Array(500_000...500_005),
          frames: frames)
      ])
    // The rail inside a page scrolled 200 down: the page's offset adds to the rail's (the
    // rail's cards, 0 to 400 high, still meet the page's view, 200 to 1280).
    frame.layout.groups = [
      Group(
        id: "page", groups: frame.layout.groups, scroll: .vertical,
        viewport: Rect(x: 0, y: 0, width: 1920, height: 1080))
    ]
    frame.scroll["page"] = Point(x: 0, y: 200)
    #expect(
      frame.virtualWindows() == [
        VirtualWindow(
          group: "rail", shift: Point(x: 500_000 * 340, y: 200), indices: Array(500_000...500_005),
          frames: frames)
      ])
    // Scrolled 500 down, the page shows 500 to 1580: the rail's cards are out of view.
    frame.scroll["page"] = Point(x: 0, y: 500)
    #expect(frame.virtualWindows().first?.indices == [])
    #expect(frame.drawnItems.isEmpty)
  }

  @Test("a window carries the supplied content of the items in view only")
  func windowContent() throws {
    var frame = ScreenFrames.virtualRail()
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
}
