import Foundation
import HummingbirdWSClient
import Logging
import TestSupport
import Testing

/// The built-in web page draws a virtual group: headless Chromium loads the web screen of a
/// 1,000,000-item grid while the real remote moves focus, and a headless mirror of the same
/// session says which cells are in view.
@Suite("Web page: a virtual grid", .serialized)
struct WebVirtualGridTests {
  /// Where a person can look at the page: `/work/virtual-web.png` when `/work` is writable.
  static let sharedScreenshot = "/work/virtual-web.png"

  /// The page's cards of the grid (JavaScript).
  static let cards =
    "[...document.querySelectorAll('#stage .item')].filter((e) => e.dataset.id.startsWith('grid#'))"

  @Test(
    "Chromium draws only the cells in view of a 1,000,000-item grid, scrolled with the remote's presses, with the focused, highlighted and unfocused looks and the tilt; a screenshot is saved",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func gridInChromium() async throws {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("grid.json", VirtualGridTests.layout)
    let (web, url) = try stack.webScreen(["--layout", file])
    defer { web.kill() }
    let mirror = try stack.screen(["--mirror"])
    let start = try mirror.waitForFrame("the mirror's first frame") { $0.focused == "grid#500500" }
    let box = Unchecked(value: (stack, mirror))
    let shotPath = NSTemporaryDirectory() + "tenfoot-virtual-web.png"
    try await HeadlessChromium.withPage(url, profile: "\(stack.directory.path)/chromium-cdp") {
      devtools in
      let (stack, mirror) = box.value
      try await devtools.waitFor(
        "grid#500500 focused on the page",
        "document.querySelector('.item.focused')?.dataset.id === 'grid#500500'")
      // Two presses of the real remote: one column right, one row down.
      for (key, id) in [("right", "grid#500501"), ("down", "grid#501501")] {
        let press = try stack.remote(["press", key])
        #expect(press.status == 0, "\(press.errors)")
        try await devtools.waitFor(
          "\(id) focused on the page after \(key)",
          "document.querySelector('.item.focused')?.dataset.id === '\(id)'")
      }
      let shown = try mirror.waitForFrame(from: start.index, "the mirror with grid#501501") {
        $0.focused == "grid#501501"
      }
      // Once the cards that scrolled away have slid out, the page holds exactly the cells the
      // headless renderer draws for the same state.
      let window = shown.frame.virtual.keys.sorted()
      #expect((12...60).contains(window.count), "\(window.count) cells in view")
      // The presses scrolled the grid: cells left the view and others came in.
      #expect(Set(start.frame.virtual.keys) != Set(window), "the window did not move")
      let expected = String(
        decoding: try JSONSerialization.data(withJSONObject: window), as: UTF8.self)
      try await devtools.waitFor(
        "the page's cards to be the \(window.count) cells in view",
        "JSON.stringify(\(Self.cards).map((e) => e.dataset.id).sort()) === '\(expected)'")
      let looks = try await devtools.evaluate(
        """
        (() => { const f = document.getElementById('item-grid#501501');
          const n = document.getElementById('item-grid#501500');
          const r = f.getBoundingClientRect(), v = document.getElementById('viewport').getBoundingClientRect();
          return { state: f.dataset.state, cls: f.className, transform: f.style.transform,
            title: f.querySelector('.title').textContent, pos: f.getAttribute('aria-posinset'),
            size: f.getAttribute('aria-setsize'), active: document.activeElement === f,
            inside: r.left >= v.left && r.right <= v.right && r.top >= v.top && r.bottom <= v.bottom,
            neighbour: [n.dataset.state, n.style.transform],
            cards: \(Self.cards).length, nodes: document.querySelectorAll('#stage *').length }; })()
        """)
      let found = try #require(looks as? [String: Any], "\(String(describing: looks))")
      let scale = try #require(shown.frame.scale, "the mirror's parallax")
      #expect(found["state"] as? String == "focused", "\(found)")
      #expect((found["cls"] as? String)?.split(separator: " ").contains("focused") == true)
      let drawnScale = (found["transform"] as? String).flatMap { transform in
        transform.range(of: "scale(").flatMap { start in
          Double(transform[start.upperBound...].prefix { $0 != ")" })
        }
      }
      #expect(
        scale > 1 && abs((drawnScale ?? 0) - scale) < 0.001,
        "the engine's focused scale \(scale): \(found)")
      #expect(found["title"] as? String == "Title 501502", "\(found)")
      #expect(found["pos"] as? String == "501502" && found["size"] as? String == "1000000")
      #expect(found["active"] as? Bool == true, "the focused card has the DOM focus")
      #expect(found["inside"] as? Bool == true, "the focused card is scrolled into view: \(found)")
      let neighbour = found["neighbour"] as? [String] ?? []
      #expect(neighbour.first == "unfocused" && neighbour.last?.contains("scale(1)") == true)
      print(
        "virtual grid on the web page: \(found["cards"] ?? "?") cards, \(found["nodes"] ?? "?") elements on the stage, \(window.count) cells in view, of 1,000,000"
      )

      // Select held on the page's keyboard: highlighted while down, focused again after.
      let time = Date().timeIntervalSince1970
      try await devtools.call(
        "Input.dispatchKeyEvent",
        [
          "type": "keyDown", "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13,
          "timestamp": time,
        ])
      try await devtools.waitFor(
        "grid#501501 highlighted while select is down",
        "document.getElementById('item-grid#501501').dataset.state === 'highlighted'")
      try await devtools.call(
        "Input.dispatchKeyEvent",
        [
          "type": "keyUp", "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13,
          "timestamp": time + 0.05,
        ])
      try await devtools.waitFor(
        "grid#501501 focused again after select",
        "document.getElementById('item-grid#501501').dataset.state === 'focused'")

      // A finger resting right of the touch pad's centre tilts the focused cell.
      let touch = try await devtools.slideRightOnPad()
      try await devtools.waitFor(
        "grid#501501 tilted on the page",
        "parseFloat((document.getElementById('item-grid#501501').style.transform.match(/rotateY\\(([-\\d.]+)deg\\)/) || [0, 0])[1]) > 0.5"
      )
      // What a person sees: the tilted cell in the middle of the grid.
      let shot = try await devtools.call("Page.captureScreenshot", ["format": "png"])
      let png = try #require(
        (shot["data"] as? String).flatMap { Data(base64Encoded: $0) }, "no screenshot")
      try png.write(to: URL(fileURLWithPath: shotPath))
      try await devtools.lift(touch)
    }
    print("virtual grid screenshot: \(shotPath)")
    if FileManager.default.isWritableFile(atPath: "/work") {
      try? FileManager.default.removeItem(atPath: Self.sharedScreenshot)
      try FileManager.default.copyItem(atPath: shotPath, toPath: Self.sharedScreenshot)
      print("virtual grid screenshot copied to \(Self.sharedScreenshot)")
    }
    let saved = try Data(contentsOf: URL(fileURLWithPath: shotPath))
    #expect(saved.starts(with: [0x89, 0x50, 0x4E, 0x47]) && saved.count > 10_000)
  }
}
