import Foundation
import HummingbirdWSClient
import Logging
import TenFootKit
import TestSupport
import Testing

/// Content on demand on the built-in web page: a broker, a web `tenfoot-screen` showing the
/// row of 1,000,000 titles in headless Chromium, this process's TenFootKit app attached to it
/// answering `itemsInView` with "Movie N" (one cell with a badge and an accent, one supplied
/// unavailable, one subtitle of markup), and the real `tenfoot-remote`. An extension of
/// ``AsyncAppTests`` so that it runs in their process of its own (`scripts/test`): the app's
/// events loop needs the cooperative pool.
extension AsyncAppTests {
  /// Where a person can look at the page: `/work/virtual-web-content.png` when `/work` is
  /// writable.
  static let webContentScreenshot = "/work/virtual-web-content.png"

  /// The page's cards of the row (JavaScript).
  static let rowCards =
    "[...document.querySelectorAll('#stage .item')].filter((e) => e.dataset.id.startsWith('titles#'))"

  /// Whether every card of the row shows its supplied title and is named by it, and at least
  /// `least` cards are drawn (JavaScript).
  static func allMovies(least: Int = 5) -> String {
    """
    (() => { const cards = \(rowCards); if (cards.length < \(least)) return false;
      return cards.every((e) => { const name = 'Movie ' + (Number(e.dataset.id.split('#')[1]) + 1);
        return e.querySelector('.title').firstChild.textContent === name
          && e.getAttribute('aria-label') === name; }); })()
    """
  }

  @Test(
    "content on demand on the web page: Chromium's cards show the titles, badge, accent and unavailability the app supplies, after presses and far along",
    .enabled(
      if: HeadlessChromium.path != nil
        || ProcessInfo.processInfo.environment["TENFOOT_REQUIRE_BROWSER"] == "1"))
  func webVirtualContentOnDemand() async throws {
    let broker = try Broker()
    let file = try Self.movieRow(in: broker)
    let arguments = [
      "--layout", file, "--renderer", "web", "--listen", "127.0.0.1:0", "--state-dir",
      broker.directory.path + "/screen", "--control", broker.control, "--state", broker.state,
    ]
    let environment = broker.environment
    let (web, url) = try await offPool {
      let web = try ChildProcess(
        TestEnvironment.binary("tenfoot-screen"), arguments, environment: environment)
      let line = try web.waitForLine("the web renderer's listening line") {
        $0.hasPrefix("tenfoot-screen web http://127.0.0.1:")
      }
      return (web, String(line.line.dropFirst("tenfoot-screen web ".count)))
    }
    defer { web.kill() }

    let options = try AppOptions.parse(
      ["--attach", "--control", broker.control, "--state", broker.state])
    let app = try TenFootApp.connect(
      layout: nil, options: options, logger: Logger(label: "test.web-virtual-content"))
    defer { app.stop() }
    let loop = Task {
      for await update in app.events {
        guard case .itemsInView(let group, let range) = update.event else { continue }
        try await app.setVirtualContent(
          group: group,
          items: Dictionary(uniqueKeysWithValues: range.map { ($0, Self.movie($0)) }))
      }
    }
    defer { loop.cancel() }

    let shotPath = NSTemporaryDirectory() + "tenfoot-virtual-web-content.png"
    try await HeadlessChromium.withPage(url, profile: broker.directory.path + "/chromium-cdp") {
      devtools in
      try await devtools.waitFor(
        "titles#0 focused on the page",
        "document.querySelector('.item.focused')?.dataset.id === 'titles#0'")
      try await devtools.waitFor("the supplied titles on every card in view", Self.allMovies())
      let first = try #require(
        try await devtools.evaluate(
          """
          (() => { const card = (i) => document.getElementById('item-titles#' + i);
            const f = card(0), b = card(1), u = card(2);
            return { focused: f.dataset.state, subtitle: f.querySelector('.subtitle')?.textContent,
              markup: f.querySelectorAll('.title b, .title img').length,
              badge: b.querySelector('.badge')?.textContent, accented: b.classList.contains('accented'),
              bar: !!b.querySelector('.accent-bar'), accent: b.style.getPropertyValue('--accent'),
              unavailable: u.dataset.state, disabled: u.getAttribute('aria-disabled'),
              look: u.classList.contains('unavailable') + ' ' + getComputedStyle(u.querySelector('.face')).filter }; })()
          """) as? [String: Any])
      #expect(first["focused"] as? String == "focused", "\(first)")
      #expect(first["subtitle"] as? String == "No. 0 <b>bold</b>", "as text: \(first)")
      #expect(first["markup"] as? Int == 0, "no markup from the app's text: \(first)")
      #expect(first["badge"] as? String == "4K", "\(first)")
      #expect(first["accented"] as? Bool == true && first["bar"] as? Bool == true, "\(first)")
      #expect(first["accent"] as? String == "#ff8800", "\(first)")
      #expect(first["unavailable"] as? String == "unavailable", "\(first)")
      #expect(first["disabled"] as? String == "true", "\(first)")
      #expect(
        (first["look"] as? String)?.hasPrefix("true grayscale(1)") == true, "greyed: \(first)")
      let shot = try await devtools.call("Page.captureScreenshot", ["format": "png"])
      let png = try #require(
        (shot["data"] as? String).flatMap { Data(base64Encoded: $0) }, "no screenshot")
      try png.write(to: URL(fileURLWithPath: shotPath))

      // Presses of the real remote: right skips the unavailable titles#2, and nine of them
      // scroll the row; the cards that come into view show their supplied titles.
      let pressed = try await Self.remote(
        environment, ["press"] + Array(repeating: "right", count: 9))
      #expect(pressed.status == 0, "\(pressed.errors)")
      #expect(pressed.output.contains { $0.hasSuffix("focused titles#3") }, "\(pressed.output)")
      #expect(!pressed.output.contains { $0.hasSuffix("focused titles#2") }, "\(pressed.output)")
      try await devtools.waitFor(
        "titles#10 focused on the page",
        "document.querySelector('.item.focused')?.dataset.id === 'titles#10'")
      try await devtools.waitFor(
        "the supplied titles after the presses, titles#0 scrolled away",
        "!document.getElementById('item-titles#0') && \(Self.allMovies())")
      let focusedTitle = try await devtools.evaluate(
        "document.querySelector('.item.focused .title').firstChild.textContent")
      #expect(focusedTitle as? String == "Movie 11")

      // Far along: the cards around index 900,000 show that window's supplied titles.
      let far = try await Self.remote(environment, ["focus", "titles#900000"])
      #expect(far.status == 0, "\(far.errors)")
      try await devtools.waitFor(
        "titles#900000 focused with the supplied titles around it",
        """
        document.querySelector('.item.focused')?.dataset.id === 'titles#900000'
          && \(Self.rowCards).every((e) => Number(e.dataset.id.split('#')[1]) >= 899990)
          && \(Self.allMovies())
        """)
      let farTitle = try await devtools.evaluate(
        "document.querySelector('.item.focused .title').firstChild.textContent")
      #expect(farTitle as? String == "Movie 900001")
    }
    if FileManager.default.isWritableFile(atPath: "/work") {
      try? FileManager.default.removeItem(atPath: Self.webContentScreenshot)
      try FileManager.default.copyItem(atPath: shotPath, toPath: Self.webContentScreenshot)
      print("web virtual content screenshot: \(Self.webContentScreenshot)")
    }
  }

  /// Runs `tenfoot-remote arguments` to its end off the pool (``Broker/remote(_:)`` without
  /// the broker, which the DevTools closure cannot capture).
  static func remote(_ environment: [String: String], _ arguments: [String]) async throws -> (
    status: Int32, output: [String], errors: [String]
  ) {
    try await offPool {
      let remote = try ChildProcess(
        TestEnvironment.binary("tenfoot-remote"), arguments, environment: environment)
      let status = try remote.waitForExit(timeout: 15)
      return (status, remote.output, remote.errors)
    }
  }

  /// What the app supplies for index `index`: "Movie N" with its number as subtitle; index 0's
  /// subtitle carries markup (drawn as text), index 1 a badge and an accent, index 2 is
  /// unavailable.
  static func movie(_ index: Int) -> VirtualContent {
    var content = ItemContent(subtitle: "No. \(index)" + (index == 0 ? " <b>bold</b>" : ""))
    if index == 1 {
      content.badge = "4K"
      content.accent = "#ff8800"
    }
    return VirtualContent(title: "Movie \(index + 1)", content: content, available: index != 2)
  }
}
