import Foundation
import HummingbirdWSClient
import Logging
import TestSupport
import Testing

/// Reduced motion and high contrast with real processes: a headless screen's frames, and the
/// web page in headless Chromium with the browser's preferences emulated over DevTools
/// (`Emulation.setEmulatedMedia`).
@Suite("Reduced motion and high contrast across processes", .serialized)
struct DisplayOptionsProcessTests {
  /// The parallax object of a headless frame line.
  static func parallax(_ frame: Frame) -> [String: Any]? {
    guard let data = frame.line.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return nil }
    return object["parallax"] as? [String: Any]
  }

  @Test(
    "tenfoot-screen --reduce-motion: the frames show the parallax at rest while the broker tilts")
  func reducedMotionFrames() throws {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("posters.json", WebScreenTests.layout)
    let still = try stack.screen(["--layout", file, "--reduce-motion"])
    try still.waitForFrame("the first frame") { $0.focused == "p0" }
    let mirror = try stack.screen(["--mirror"])
    try mirror.waitForFrame("the mirror's first frame") { $0.focused == "p0" }

    let drag = try stack.remote(["drag", "--to", "0.3,-0.2", "--rest", "500ms"])
    #expect(drag.status == 0, "remote failed: \(drag.errors)")
    let tilted = try mirror.waitForFrame("the broker's tilt in a screen without the option") {
      ($0.rotateY ?? 0) > 0.5
    }
    try still.waitForFrame("the same state in the reduced-motion screen") {
      $0.seq >= tilted.frame.seq
    }
    let frames = still.frames.filter { Self.parallax($0) != nil }
    #expect(frames.count >= 2)
    for frame in frames {
      let parallax = try #require(Self.parallax(frame))
      #expect(
        parallax["rotateX"] as? Double == 0 && parallax["rotateY"] as? Double == 0, "\(frame)")
      let translate = parallax["translate"] as? [[Double]] ?? []
      #expect(translate.count == 2 && translate.allSatisfy { $0 == [0, 0] }, "\(frame)")
      #expect(parallax["specular"] as? [Double] == [0.5, 0.5], "\(frame)")
      #expect((frame.scale ?? 0) > 1, "the focused scale stays: \(frame)")
    }
  }

  /// `rgb(r, g, b)` or `rgba(r, g, b, a)` from a computed style, as numbers.
  static func channels(_ css: String) -> [Double] {
    css.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
  }

  /// The WCAG contrast ratio of two computed `rgb(…)` colours (opaque).
  static func ratio(_ first: String, _ second: String) -> Double {
    func luminance(_ css: String) -> Double {
      let c = channels(css).prefix(3).map { value -> Double in
        let s = value / 255
        return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
      }
      return c.count == 3 ? 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2] : 0
    }
    let (a, b) = (luminance(first), luminance(second))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
  }

  @Test(
    "in Chromium: prefers-reduced-motion rests the tilt and fades; prefers-contrast: more gives solid AA colours and a thick ring",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func browserPreferences() async throws {
    let setup = WebScreenTests()
    let (stack, web, mirror, url) = try setup.start()
    let mirrorBox = Unchecked(value: mirror)
    try await HeadlessChromium.withPage(url, profile: "\(stack.directory.path)/chromium-cdp") {
      devtools in
      try await devtools.waitFor(
        "p0 focused on the page", "document.querySelector('.item.focused')?.dataset.id === 'p0'")
      try await Self.checkNormal(devtools)
      try await Self.checkReducedMotion(devtools, mirror: mirrorBox.value)
      try await Self.checkHighContrast(devtools)
    }
    try setup.stopsCleanly(web)
  }

  /// Without preferences: the normal palette's backings are what the page computes.
  static func checkNormal(_ devtools: DevTools) async throws {
    let styles =
      try await devtools.evaluate(
        """
        (() => {
          const s = (q) => getComputedStyle(document.querySelector(q));
          return [s('#item-p0 .title').backgroundColor, s('#item-p2').opacity, s('#item-p2').filter,
            s('#item-p2 .title').color, String(document.documentElement.className)];
        })()
        """) as? [String]
    #expect(
      styles == ["rgba(0, 0, 0, 0.6)", "1", "none", "rgb(184, 188, 198)", ""], "\(styles ?? [])")
  }

  /// Emulated `prefers-reduced-motion: reduce`: a resting finger tilts the poster at the
  /// broker, but not on the page; transitions are a short opacity fade.
  static func checkReducedMotion(_ devtools: DevTools, mirror: ChildProcess) async throws {
    try await devtools.call(
      "Emulation.setEmulatedMedia",
      ["features": [["name": "prefers-reduced-motion", "value": "reduce"]]])
    try await devtools.waitFor(
      "the page to take the preference",
      "document.documentElement.classList.contains('reduce-motion')")
    try await devtools.key("ArrowRight", code: 39)
    try await devtools.waitFor(
      "p1 focused on the page", "document.querySelector('.item.focused')?.dataset.id === 'p1'")
    let touch = try await devtools.slideRightOnPad()
    let tilted = try mirror.waitForFrame("the broker tilts p1") {
      $0.focused == "p1" && ($0.rotateY ?? 0) > 0.5
    }
    try await devtools.waitFor(
      "the tilted frame drawn on the page",
      "parseInt((document.getElementById('info').textContent.match(/seq (\\d+)/) || [])[1]) >= \(tilted.frame.seq)"
    )
    let styles =
      try await devtools.evaluate(
        """
        (() => {
          const el = document.getElementById('item-p1');
          const s = getComputedStyle(el);
          return [el.style.transform, s.transform, s.transitionProperty, s.transitionDuration,
            getComputedStyle(el.querySelector('.specular')).display, s.animationName];
        })()
        """) as? [String]
    let values = try #require(styles, "computed styles")
    #expect(values[0].contains("rotateX(0deg) rotateY(0deg)"), "inline transform: \(values[0])")
    // matrix3d(a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3, …): no rotation terms.
    let matrix = channels(values[1].replacingOccurrences(of: "matrix3d", with: ""))
    #expect(matrix.count == 16 || matrix.count == 6, "computed transform: \(values[1])")
    if matrix.count == 16 {
      for index in [1, 2, 4, 6, 8, 9] {
        #expect(abs(matrix[index]) < 1e-6, "no tilt in \(values[1]) (term \(index))")
      }
      #expect(abs(matrix[0] - 1.1) < 0.01, "scaled, not tilted: \(values[1])")
    }
    #expect(values[2] == "opacity", "transitions: \(values[2])")
    #expect(values[3] == "0.12s", "durations: \(values[3])")
    #expect(values[4] == "none", "no specular sweep")
    #expect(values[5] == "tenfoot-focus-fade", "focus cross-fades in: \(values[5])")
    try await devtools.lift(touch)
  }

  /// Emulated `prefers-contrast: more`: solid black and white, a thick yellow ring, no
  /// translucency, and every title at AA or better by its computed colours.
  static func checkHighContrast(_ devtools: DevTools) async throws {
    try await devtools.call(
      "Emulation.setEmulatedMedia", ["features": [["name": "prefers-contrast", "value": "more"]]])
    try await devtools.waitFor(
      "the page to take the preference",
      "document.documentElement.classList.contains('contrast-high') && !document.documentElement.classList.contains('reduce-motion')"
    )
    let styles =
      try await devtools.evaluate(
        """
        (() => {
          const s = (q) => getComputedStyle(document.querySelector(q));
          return [
            s('#item-p1').boxShadow, s('#stage').backgroundColor,
            s('#item-p0 .title').color, s('#item-p0 .title').backgroundColor, s('#item-p0').boxShadow,
            s('#item-p1 .title').color, s('#item-p1 .title').backgroundColor,
            s('#item-p2 .title').color, s('#item-p2 .title').backgroundColor,
            s('#item-p2').opacity, s('#item-p2').filter, s('#item-p2').outlineStyle,
            s('#item-p0 .layer').display, s('#item-p1').filter,
          ];
        })()
        """) as? [String]
    let v = try #require(styles, "computed styles")
    #expect(v[0].contains("rgb(255, 214, 0) 0px 0px 0px 8px"), "thick yellow ring: \(v[0])")
    #expect(v[1] == "rgb(0, 0, 0)", "black stage: \(v[1])")
    #expect(v[4].contains("rgb(200, 200, 200) 0px 0px 0px 3px inset"), "unfocused outline: \(v[4])")
    for (state, color, background) in [
      ("unfocused", v[2], v[3]), ("focused", v[5], v[6]), ("unavailable", v[7], v[8]),
    ] {
      #expect(channels(background).count == 3, "\(state): an opaque background, \(background)")
      let ratio = Self.ratio(color, background)
      print(
        "high contrast, computed in Chromium: \(state) title \(color) on \(background): \(ratio)")
      #expect(ratio >= 4.5, "\(state) title: \(color) on \(background) is \(ratio):1")
    }
    #expect(Self.ratio("rgb(255, 214, 0)", v[1]) >= 3, "ring on the stage")
    #expect(v[9] == "1" && v[10] == "none" && v[11] == "dashed", "unavailable: \(v[9...11])")
    #expect(v[12] == "none", "no art behind titles")
    #expect(v[13] == "none", "no filters")
  }
}
