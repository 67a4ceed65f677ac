import Foundation
import HummingbirdWSClient
import Logging
import TestSupport
import Testing

/// Items' content as a person sees it: `examples/content.json` with its asset directory on the
/// web screen in headless Chromium (images loaded, subtitles and badges in the page, a
/// screenshot) and on the terminal screen in tmux; the catalog's unavailable poster's badge;
/// and the start-up check of a layout's images.
@Suite("Item content across processes", .serialized)
struct ContentTests {
  static let example = repositoryRoot() + "/examples/content.json"
  static let assets = repositoryRoot() + "/examples/assets"

  /// Where a person can look at the page: `/work/content-page.png` when `/work` is writable.
  static let sharedScreenshot = "/work/content-page.png"

  @Test(
    "Chromium shows the example's pictures, subtitles, body and badges from the asset directory; a screenshot is saved",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func exampleInChromium() async throws {
    let stack = try Stack(.ipc)
    let (web, url) = try stack.webScreen(["--layout", Self.example, "--assets", Self.assets])
    defer { web.kill() }
    // A stable path that outlives the stack's temporary directory.
    let shotPath = NSTemporaryDirectory() + "tenfoot-content-page.png"
    try await HeadlessChromium.withPage(url, profile: "\(stack.directory.path)/chromium-cdp") {
      devtools in
      try await devtools.waitFor(
        "orbit focused on the page",
        "document.querySelector('.item.focused')?.dataset.id === 'orbit'")
      try await devtools.waitFor(
        "every picture loaded",
        """
        document.querySelectorAll('.item img.art').length === 4 &&
          [...document.querySelectorAll('.item img.art')].every((i) => i.complete && i.naturalWidth > 0)
        """)
      let pictures = try await devtools.evaluate(
        """
        [...document.querySelectorAll('.item img.art')].map((i) => [i.closest('.item').dataset.id,
          new URL(i.src).pathname, String(i.naturalWidth), i.getAttribute('alt'), i.loading,
          i.decoding, getComputedStyle(i).objectFit])
        """)
      let rows = try #require(pictures as? [[String]], "\(String(describing: pictures))")
      #expect(rows.map { $0[0] } == ["orbit", "canyon", "tides", "signal"])
      #expect(
        rows[0] == ["orbit", "/assets/posters/orbit.png", "200", "", "lazy", "async", "cover"])
      let texts = try await devtools.evaluate(
        """
        ({ subtitles: [...document.querySelectorAll('.item .subtitle')].map((s) =>
             s.closest('.item').dataset.id + '=' + s.textContent),
           badges: [...document.querySelectorAll('.item .badge')].map((b) =>
             b.closest('.item').dataset.id + '=' + b.textContent),
           bodies: [...document.querySelectorAll('.item .body')].map((b) => b.closest('.item').dataset.id),
           accent: getComputedStyle(document.querySelector('#item-tides .accent-bar')).backgroundColor,
           signal: document.getElementById('item-signal').dataset.state,
           badgeShown: getComputedStyle(document.querySelector('#item-signal .badge')).display,
           name: document.getElementById('item-orbit').getAttribute('aria-label') })
        """)
      let found = try #require(texts as? [String: Any], "\(String(describing: texts))")
      #expect(
        found["subtitles"] as? [String] == [
          "orbit=2031 · Space drama", "canyon=2029 · Western", "tides=Series · 3 seasons",
          "signal=2032 · Thriller", "more=Every title, A to Z",
        ], "\(found)")
      #expect(
        found["badges"] as? [String] == [
          "menu-movies=New", "orbit=New", "canyon=4K", "signal=Coming soon",
        ], "\(found)")
      #expect(found["bodies"] as? [String] == ["orbit", "canyon", "more"], "\(found)")
      #expect(found["accent"] as? String == "rgb(48, 192, 200)", "\(found)")
      #expect(found["signal"] as? String == "unavailable")
      #expect(found["badgeShown"] as? String == "block")
      #expect(found["name"] as? String == "Orbit", "the title names the card, not its content")
      // What a person sees.
      let shot = try await devtools.call("Page.captureScreenshot", ["format": "png"])
      let png = try #require(
        (shot["data"] as? String).flatMap { Data(base64Encoded: $0) }, "no screenshot")
      try png.write(to: URL(fileURLWithPath: shotPath))
    }
    print("content page screenshot: \(shotPath)")
    if FileManager.default.isWritableFile(atPath: "/work") {
      try? FileManager.default.removeItem(atPath: Self.sharedScreenshot)
      try FileManager.default.copyItem(atPath: shotPath, toPath: Self.sharedScreenshot)
      print("content page screenshot copied to \(Self.sharedScreenshot)")
    }
    let saved = try Data(contentsOf: URL(fileURLWithPath: shotPath))
    #expect(saved.starts(with: [0x89, 0x50, 0x4E, 0x47]) && saved.count > 10_000)
  }

  @Test(
    "the catalog's unavailable poster shows its badge, Coming soon, from its content",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func catalogBadge() async throws {
    let stack = try Stack(.ipc)
    let (web, url) = try stack.webScreen([])
    defer { web.kill() }
    try await HeadlessChromium.withPage(url, profile: "\(stack.directory.path)/chromium-cdp") {
      devtools in
      try await devtools.waitFor(
        "the catalog drawn", "document.querySelector('.item.unavailable .badge') !== null")
      let badges = try await devtools.evaluate(
        """
        [...document.querySelectorAll('.item.unavailable')].map((el) =>
          el.dataset.id + '=' + (el.querySelector('.badge')?.textContent ?? 'none'))
        """)
      let list = try #require(badges as? [String], "\(String(describing: badges))")
      #expect(!list.isEmpty)
      #expect(list.allSatisfy { $0.hasSuffix("=Coming soon") }, "\(list)")
      let available = try await devtools.evaluate(
        "document.querySelectorAll('.item:not(.unavailable) .badge').length")
      #expect(available as? Int == 0, "the catalog's available posters carry no badge")
    }
  }

  @Test("the terminal screen in tmux shows a subtitle under its title and the badges")
  func terminal() throws {
    try #require(TerminalScreenTests.hasTmux, "tmux is not installed: run scripts/bootstrap")
    let stack = try Stack(.ipc)
    let tmux = try Tmux(
      columns: 160, rows: 48,
      command: "\(TestEnvironment.binary("tenfoot-screen")) --renderer terminal --layout "
        + "\(Self.example) --assets \(Self.assets)" + Tmux.keepAlive,
      environment: stack.environment)
    defer { tmux.stop() }
    let screen = try tmux.waitFor("the example drawn with its content") {
      $0.contains("2031 · Space drama") && $0.contains("[Coming soon]")
    }
    let lines = screen.components(separatedBy: "\n")
    let title = try #require(lines.firstIndex { $0.contains("Red Canyon") }, "\(screen)")
    #expect(lines[title + 1].contains("2029 · Western"), "\(screen)")
    #expect(screen.contains("[New]") && screen.contains("[4K]"), "\(screen)")
  }

  @Test("a layout whose image is outside the asset directory stops the screen with exit 1")
  func startUpCheck() throws {
    let stack = try Stack(.ipc)
    let assets = stack.directory.path + "/assets"
    try FileManager.default.createDirectory(atPath: assets, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: Self.assets + "/posters/orbit.png", toPath: stack.directory.path + "/outside.png")
    try FileManager.default.createSymbolicLink(
      atPath: assets + "/poster.png", withDestinationPath: "../outside.png")
    let layout = try stack.directory.write(
      "layout.json",
      """
      {"items": [{"id": "a", "title": "A", "frame": [0, 0, 300, 400]},
                 {"id": "b", "title": "B", "frame": [400, 0, 300, 400], "image": "poster.png"},
                 {"id": "c", "title": "C", "frame": [800, 0, 300, 400], "image": "none.png"}]}
      """)
    let screen = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      ["--renderer", "headless", "--layout", layout, "--assets", assets],
      environment: stack.environment)
    #expect(try screen.waitForExit() == 1)
    let errors = screen.errors.joined(separator: "\n")
    #expect(
      errors.contains(
        "\(layout): items[1].image: \"poster.png\" is not a file inside the asset directory \(assets) (its real path leaves the asset directory)"
      ), "\(errors)")
    #expect(
      errors.contains(
        "\(layout): items[2].image: \"none.png\" is not a file inside the asset directory \(assets) (no such file)"
      ), "\(errors)")
    // Without --assets at all: it says to pass it.
    let bare = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"), ["--renderer", "headless", "--layout", layout],
      environment: stack.environment)
    #expect(try bare.waitForExit() == 1)
    #expect(bare.errors.joined().contains("pass --assets DIR"), "\(bare.errors)")
  }
}
