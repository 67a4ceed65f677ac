import Foundation
import HummingbirdWSClient
import Logging
import TestSupport
import Testing

/// The web page as a pointing device, in a real browser: headless Chromium moves its mouse
/// over the stage (DevTools `Input.dispatchMouseEvent`), the page sends pointer samples to the
/// broker through the web screen, and the focus and the pointer come back to the page and to a
/// headless mirror screen.
@Suite("Web page as a pointer", .serialized)
struct WebPointerTests {
  /// A row of five 200×300 posters (`p0`…`p4`, lift) and a search field, on 1920×1080.
  static let layout = {
    var items = (0..<5).map { column in
      #"{"id": "p\#(column)", "title": "Poster \#(column)", "frame": [\#(100 + column * 250), 300, 200, 300]}"#
    }
    items.append(
      #"{"id": "search", "title": "Search", "kind": "textField", "frame": [100, 50, 600, 80]}"#)
    items.append(
      #"{"id": "ok", "title": "OK", "frame": [1500, 60, 160, 60], "cornerRadius": 12}"#)
    items.append(
      #"{"id": "info", "title": "Info", "frame": [1200, 60, 200, 60], "pointerEffect": "hover"}"#)
    // The page is read a while after each move: on a loaded machine that can pass the
    // default 2 s idle timeout, which would hide the pointer under the test's feet.
    return
      #"{"canvas": {"width": 1920, "height": 1080}, "pointerIdleTimeout": 600, "initialFocus": "p0", "items": [\#(items.joined(separator: ", "))]}"#
  }()

  /// The page's client coordinates of canvas point (`x`, `y`): the stage is scaled to fit.
  static func client(_ devtools: DevTools, _ x: Double, _ y: Double) async throws -> (
    Double, Double
  ) {
    let rect = try await devtools.evaluate(
      """
      (() => { const r = document.getElementById('stage').getBoundingClientRect();
        return [r.left, r.top, r.width / 1920]; })()
      """)
    let numbers = try #require(rect as? [Double], "stage rect: \(String(describing: rect))")
    return (numbers[0] + x * numbers[2], numbers[1] + y * numbers[2])
  }

  @Test(
    "the mouse over a poster focuses and lifts it; over the search field the pointer is an I-beam; over a button it becomes a platter; a click activates",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func mouseOverPage() async throws {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("row.json", Self.layout)
    let (web, url) = try stack.webScreen(["--layout", file])
    defer { web.kill() }
    let mirror = try stack.screen(["--mirror"])
    let first = try mirror.waitForFrame("the mirror's first frame") { $0.focused == "p0" }
    let mirrorBox = Unchecked(value: mirror)
    try await HeadlessChromium.withPage(url, profile: "\(stack.directory.path)/chromium-cdp") {
      devtools in
      try await devtools.waitFor(
        "p0 focused on the page", "document.querySelector('.item.focused')?.dataset.id === 'p0'")

      // Over p2's centre (700, 450), with two moves (a real mouse never jumps in one). The
      // specular's opacity is read with its fade run to its end (`finish()`): a loaded
      // machine's Chromium may lag behind the clock, the end state is what is checked.
      let (x2, y2) = try await Self.client(devtools, 700, 450)
      try await devtools.hover(x: x2 - 30, y: y2)
      try await devtools.hover(x: x2, y: y2)
      try await devtools.waitFor(
        "p2 focused and lifted by the pointer",
        """
        document.querySelector('.item.focused')?.dataset.id === 'p2'
          && document.getElementById('item-p2').classList.contains('ptr-lift')
          && document.getElementById('pointer').dataset.target === 'p2'
          && (document.getAnimations().forEach((a) => a.finish()),
              getComputedStyle(document.querySelector('#item-p2 .specular')).opacity === '1')
        """, timeout: 20)
      let lifted = try await devtools.evaluate(
        """
        (() => { const el = document.getElementById('item-p2');
          const p = document.getElementById('pointer');
          return [el.style.transform, getComputedStyle(el.querySelector('.specular')).opacity,
                  el.style.boxShadow, p.className]; })()
        """)
      let values = try #require(lifted as? [String], "p2's style: \(String(describing: lifted))")
      let scale = values[0].components(separatedBy: "scale(").last.flatMap {
        Double($0.prefix { $0 != ")" })
      }
      #expect((scale ?? 0) > 1, "the lifted poster is scaled up: \(values)")
      #expect(values[1] == "1", "the specular highlight shows: \(values)")
      #expect(values[2].contains("rgba(0, 0, 0"), "the lifted poster casts a shadow: \(values)")
      #expect(values[3].contains("shape-lift"), "the pointer fades under the lift: \(values)")
      // The second move's point, (700, 450): at p2's centre magnetism moves nothing.
      let pointed = try mirrorBox.value.waitForFrame(
        from: first.index, "the mirror sees p2 focused by the pointer at (700, 450)"
      ) {
        let pointer = PointerAcrossProcessesTests.pointer($0)
        return $0.focused == "p2" && pointer?["target"] as? String == "p2"
          && abs((pointer?["x"] as? Double ?? 0) - 700) < 2
      }
      let state = try #require(PointerAcrossProcessesTests.pointer(pointed.frame))
      #expect(state["visible"] as? Bool == true, "\(pointed)")
      #expect(state["effect"] as? String == "lift", "\(pointed)")
      #expect(abs((state["y"] as? Double ?? 0) - 450) < 2, "the page's canvas point: \(pointed)")

      // Over the search field: the pointer is an I-beam.
      let (xs, ys) = try await Self.client(devtools, 300, 90)
      try await devtools.hover(x: xs, y: ys)
      try await devtools.waitFor(
        "the I-beam over the search field",
        """
        document.getElementById('pointer').dataset.shape === 'ibeam'
          && document.getElementById('pointer').classList.contains('shape-ibeam')
          && document.querySelector('.item.focused')?.dataset.id === 'search'
        """)
      let beam = try mirrorBox.value.waitForFrame(from: pointed.index, "the mirror's I-beam") {
        PointerAcrossProcessesTests.pointer($0)?["shape"] as? String == "ibeam"
      }
      #expect(beam.frame.focused == "search")

      // Over the small OK button: highlight, the pointer a rounded platter of its shape.
      let (xo, yo) = try await Self.client(devtools, 1580, 90)
      try await devtools.hover(x: xo, y: yo)
      // Computed with the morph's transition run to its end (a loaded machine's Chromium may
      // lag behind the clock; `finish()` checks where it ends, not how fast): 160×60 grown by 10 on each side, the
      // radius 12 + 10, behind the item (z-index 9 under the focused item's 10).
      try await devtools.waitFor(
        "the pointer as the OK button's platter",
        """
        document.getElementById('pointer').classList.contains('shape-item')
          && document.getElementById('item-ok').classList.contains('ptr-highlight')
          && (() => { document.getAnimations().forEach((a) => a.finish());
                const s = getComputedStyle(document.getElementById('pointer'));
                return [s.width, s.height, s.borderTopLeftRadius, s.zIndex].join(' '); })()
             === '180px 80px 22px 9'
        """, timeout: 20)

      // Over the Info button (hover): scaled by 1.06 beyond its focused scale, the pointer
      // keeps its circle.
      let (xi, yi) = try await Self.client(devtools, 1300, 90)
      try await devtools.hover(x: xi, y: yi)
      try await devtools.waitFor(
        "Info hovered",
        """
        document.getElementById('item-info').classList.contains('ptr-hover')
          && document.getElementById('pointer').classList.contains('shape-circle')
        """)
      let hovered = try await devtools.evaluate(
        """
        [document.getElementById('item-info').style.transform,
         String(layout.states.focused.scale * 1.06)]
        """)
      let hover = try #require(hovered as? [String], "\(String(describing: hovered))")
      let hoverScale = hover[0].components(separatedBy: "scale(").last.flatMap {
        Double($0.prefix { $0 != ")" })
      }
      #expect(abs((hoverScale ?? 0) - (Double(hover[1]) ?? -1)) < 0.001, "\(hover)")

      // Reduced motion: the pointer changes without moving animations (opacity only).
      let reduced = try await devtools.evaluate(
        """
        (() => { document.documentElement.classList.add('reduce-motion');
          const t = getComputedStyle(document.getElementById('pointer')).transitionProperty;
          document.documentElement.classList.remove('reduce-motion'); return t; })()
        """)
      #expect(reduced as? String == "opacity", "\(String(describing: reduced))")

      // A click over p1 activates it.
      let (x1, y1) = try await Self.client(devtools, 450, 450)
      try await devtools.hover(x: x1, y: y1)
      let now = Date().timeIntervalSince1970
      try await devtools.mouse("mousePressed", x: x1, y: y1, at: now)
      try await devtools.mouse("mouseReleased", x: x1, y: y1, at: now + 0.05)
      try mirrorBox.value.waitForFrame(from: beam.index, "p1 activated by the click") {
        $0.events.contains("activated:p1")
      }
    }
  }
}
