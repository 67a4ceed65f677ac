import FocusEngine
import SVGScreen
import ScreenCore
import TestSupport
import Testing

/// The SVG renderer draws only the visible window of a virtual group.
@Suite("Virtual groups in SVG")
struct SVGVirtualTests {
  @Test("SVG draws the visible cards only, the focused one by its title")
  func svg() {
    let svg = SVGRenderer.svg(for: ScreenFrames.virtualRail())
    #expect(svg.contains("Title 500003"))
    #expect(!svg.contains("Title 500000<") && !svg.contains("Title 500007"))
  }
}
