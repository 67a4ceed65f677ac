import Foundation
import HummingbirdWSClient
import Logging
import TestSupport
import Testing

/// The halo focus effect in a real browser: headless Chromium loads the web screen of an
/// `ipados` layout and the test reads the focused card's computed style over DevTools.
@Suite("Web page: the halo focus effect", .serialized)
struct WebHaloTests {
  /// Two cards in an iPadOS layout; "c0" has a corner radius, "c1" asks for the highlight.
  static let layout = """
    {"canvas": {"width": 1920, "height": 1080}, "navigation": "ipados", "initialFocus": "c0",
     "items": [{"id": "c0", "title": "Card 0", "frame": [100, 300, 400, 300], "cornerRadius": 24},
               {"id": "c1", "title": "Card 1", "frame": [600, 300, 400, 300], "focusEffect": "highlight"}]}
    """

  @Test(
    "the focused card shows an outline following its corner radius, without the lift; highlight colours the title",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func haloInChromium() async throws {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("cards.json", Self.layout)
    let (web, url) = try stack.webScreen(["--layout", file])
    defer { web.kill() }
    try await HeadlessChromium.withPage(url, profile: "\(stack.directory.path)/chromium-cdp") {
      devtools in
      try await devtools.waitFor(
        "c0 focused on the page", "document.querySelector('.item.focused')?.dataset.id === 'c0'")
      let style = try await devtools.evaluate(
        """
        (() => { const s = getComputedStyle(document.getElementById('item-c0'));
          return [s.outlineStyle, s.outlineColor, s.outlineWidth, s.borderTopLeftRadius,
                  document.getElementById('item-c0').style.transform]; })()
        """)
      let values = try #require(style as? [String], "computed style: \(String(describing: style))")
      #expect(values[0] == "solid", "\(values)")
      #expect(values[1] == "rgb(90, 170, 255)", "\(values)")
      #expect(values[2] == "5px", "\(values)")
      #expect(values[3] == "24px", "\(values)")
      #expect(values[4].contains("scale(1)") && values[4].contains("rotateY(0deg)"), "\(values)")
      // The unfocused highlight card has no outline; focused, its title turns accent.
      try await devtools.key("ArrowRight", code: 39)
      try await devtools.waitFor(
        "c1 focused on the page", "document.querySelector('.item.focused')?.dataset.id === 'c1'")
      let after = try await devtools.evaluate(
        """
        [getComputedStyle(document.getElementById('item-c0')).outlineStyle,
         getComputedStyle(document.querySelector('#item-c1 .title')).color,
         getComputedStyle(document.getElementById('item-c1')).outlineStyle]
        """)
      #expect(
        after as? [String] == ["none", "rgb(90, 170, 255)", "none"], "\(String(describing: after))")
    }
  }
}
