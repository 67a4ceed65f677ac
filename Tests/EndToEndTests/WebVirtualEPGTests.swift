import Foundation
import HummingbirdWSClient
import Logging
import TestSupport
import Testing

/// The built-in web page draws virtual rows sized by runs (`examples/epg.json`) at the
/// engine's frames: headless Chromium loads the web screen while the real remote moves down
/// from one channel to the next.
@Suite("Web page: a virtual EPG", .serialized)
struct WebVirtualEPGTests {
  @Test(
    "Chromium draws each programme as long as its run says, and down lands on the overlapping one",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func epgInChromium() async throws {
    let stack = try Stack(.ipc)
    let (web, url) = try stack.webScreen(["--layout", VirtualEPGTests.example])
    defer { web.kill() }
    let box = Unchecked(value: stack)
    try await HeadlessChromium.withPage(url, profile: "\(stack.directory.path)/chromium-cdp") {
      devtools in
      let stack = box.value
      try await devtools.waitFor(
        "bbc#2 focused on the page",
        "document.querySelector('.item.focused')?.dataset.id === 'bbc#2'")
      let press = try stack.remote(["press", "down"])
      #expect(press.status == 0, "\(press.errors)")
      try await devtools.waitFor(
        "itv#3 focused on the page after down",
        "document.querySelector('.item.focused')?.dataset.id === 'itv#3'")
      // The cards' layout boxes (before the focus scale and the page's fit to the window)
      // are the engine's frames: bbc#1 600–900, bbc#2 900–1700, itv#2 1050–1200 (the guide
      // has not scrolled), itv#0 300–900.
      let boxes = try await devtools.evaluate(
        """
        (() => ['bbc#1', 'bbc#2', 'itv#2', 'itv#0'].map((id) => {
          const e = document.getElementById('item-' + id);
          return [e.offsetLeft, e.offsetWidth]; }))()
        """)
      let found = try #require(boxes as? [[Double]], "\(String(describing: boxes))")
      #expect(found == [[600, 300], [900, 800], [1050, 150], [300, 600]], "\(found)")
    }
  }
}
