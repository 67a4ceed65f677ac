import FocusEngine
import ScreenCore
import TerminalScreen
import TestSupport
import Testing

/// The terminal renderer draws only the visible window of a virtual group.
@Suite("Virtual groups in the terminal")
struct TerminalVirtualTests {
  @Test("the terminal draws the visible cards only")
  func terminal() {
    let text = TerminalRenderer.compose(
      ScreenFrames.virtualRail(), columns: 120, rows: 30, colorMode: .monochrome
    )
    .lines().joined(separator: "\n")
    #expect(text.contains("Title 500003"), "\(text)")
    #expect(!text.contains("Title 500007"), "\(text)")
  }
}
