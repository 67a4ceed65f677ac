import Foundation
import HummingbirdWSClient
import Logging
import TestSupport
import Testing

/// A developer's own page as a screen (`tenfoot-screen --renderer web --app DIR` with
/// `tenfoot.js`), across real processes: a real broker, the web screen, real `tenfoot-remote`
/// presses and headless Chromium read through the DevTools protocol.
@Suite("Your own web page as a screen", .serialized)
struct WebAppTests {
  static let example = repositoryRoot() + "/examples/web-app"
  static var enabled: Bool { WebScreenTests.chromium != nil || WebScreenTests.browserRequired }

  /// The element `id`'s focus state on the page, as a JavaScript expression.
  static func state(_ id: String) -> String {
    "document.querySelector('[data-focus-id=\"\(id)\"]')?.getAttribute('data-focus-state')"
  }

  /// Runs `body` with DevTools on the page at `url` (Chromium killed after).
  static func withPage(
    _ url: String, stack: Stack, _ body: @escaping @Sendable (DevTools) async throws -> Void
  ) async throws {
    try await HeadlessChromium.withPage(url, profile: "\(stack.directory.path)/chromium-app", body)
  }

  /// What a test of a developer's page works with: the broker and its processes, and the
  /// mirror screen when asked for.
  struct AppPage: @unchecked Sendable {
    let stack: Stack
    let mirror: ChildProcess?
  }

  /// Starts a broker, the web screen serving the app in `app` (or a page of `body` and
  /// `script` written by `appDirectory`), a mirror screen if `mirror`, opens the page in
  /// headless Chromium and runs `test` with DevTools on it; stops them all after.
  static func withApp(
    _ app: String? = nil, body: String = "", script: String = "", mirror: Bool = false,
    _ test: @escaping @Sendable (DevTools, AppPage) async throws -> Void
  ) async throws {
    let stack = try Stack(.ipc)
    let directory = try app ?? appDirectory(stack, body: body, script: script)
    let (web, url) = try stack.webScreen(["--app", directory])
    defer { web.kill() }
    let mirrorScreen = mirror ? try stack.screen(["--mirror"]) : nil
    defer { mirrorScreen?.kill() }
    let page = AppPage(stack: stack, mirror: mirrorScreen)
    try await withPage(url, stack: stack) { devtools in try await test(devtools, page) }
  }

  /// Saves a screenshot of the page to `path` (and says where).
  static func screenshot(_ devtools: DevTools, to path: String) async throws {
    let shot = try await devtools.call("Page.captureScreenshot", ["format": "png"])
    let png = try #require(
      (shot["data"] as? String).flatMap { Data(base64Encoded: $0) }, "no screenshot")
    #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 5_000)
    let target =
      FileManager.default.isWritableFile(atPath: "/work")
      ? path
      : NSTemporaryDirectory() + "/"
        + URL(fileURLWithPath: path).lastPathComponent
    try png.write(to: URL(fileURLWithPath: target))
    print("web app screenshot: \(target)")
  }

  /// A remote press's last line (the focus after the app's reaction).
  static func press(_ stack: Stack, _ keys: String...) throws -> [String] {
    let result = try stack.remote(["press"] + keys)
    #expect(result.status == 0, "\(keys): \(result.errors)")
    return result.output
  }

  @Test(
    "the example: presses move focus in the app's DOM, select opens the page its script writes (the next press lands inside it), Menu returns, the live region announces",
    .enabled(if: enabled))
  func example() async throws {
    try await WebAppTests.withApp(Self.example) { devtools, page in
      let stack = page.stack
      try await devtools.call("Accessibility.enable")
      try await devtools.waitFor(
        "Movies focused in the page's own DOM", "\(Self.state("menu-movies")) === 'focused'")
      let down = try Self.press(stack, "down")
      #expect(down.last?.hasSuffix("focused orbit") == true, "\(down)")
      let right = try Self.press(stack, "right")
      #expect(right.last?.hasSuffix("focused canyon") == true, "\(right)")
      try await devtools.waitFor(
        "Canyon focused, Orbit and Movies not",
        """
        \(Self.state("canyon")) === 'focused' && \(Self.state("orbit")) === null &&
          \(Self.state("menu-movies")) === null
        """)
      let scale = try await devtools.evaluate(
        "getComputedStyle(document.querySelector('[data-focus-id=canyon]')).getPropertyValue('--tenfoot-scale')"
      )
      #expect(
        (scale as? String).flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? 0 > 1)
      try await devtools.waitFor(
        "the live region announces Canyon and its badge (data-focus-badge)",
        """
        document.querySelector('[data-tenfoot-live]').textContent.startsWith('Canyon') &&
          document.querySelector('[data-tenfoot-live]').textContent.includes('4K')
        """)
      let tree = try await AccessibleScreenTests.tree(devtools)
      let live = try #require(
        tree.values.first { $0.property("live") as? String == "polite" && $0.role == "status" },
        "an aria-live region in the accessibility tree")
      #expect(AccessibleScreenTests.text(of: live, in: tree).hasPrefix("Canyon"))
      try await devtools.waitFor(
        "the poster images loaded",
        "[...document.images].every((i) => i.complete && i.naturalWidth > 0)")
      try await Self.screenshot(devtools, to: "/work/web-app-focused.png")

      // Select opens the page the script writes; the press after it lands inside that page.
      let opened = try Self.press(stack, "up", "right", "select", "right")
      #expect(opened.count == 4, "\(opened)")
      #expect(opened[1].hasSuffix("focused menu-series"), "\(opened)")
      #expect(
        opened[2].hasSuffix("focused page-play"), "the remote prints the page's focus: \(opened)")
      #expect(opened[3].hasSuffix("focused page-later"), "\(opened)")
      try await devtools.waitFor(
        "the Series page open with Watch later focused",
        """
        document.querySelector('section h1')?.textContent === 'Series' &&
          \(Self.state("page-later")) === 'focused' && \(Self.state("menu-series")) === null
        """)
      try await Self.screenshot(devtools, to: "/work/web-app-page.png")
      let trapped = try Self.press(stack, "up")
      #expect(trapped.last?.hasSuffix("focused page-later") == true, "the page traps: \(trapped)")

      let back = try Self.press(stack, "menu")
      #expect(back.last?.hasSuffix("focused menu-series") == true, "\(back)")
      try await devtools.waitFor(
        "the page closed and Series focused again",
        "document.querySelector('section') === null && \(Self.state("menu-series")) === 'focused'")
    }
  }

  @Test(
    "--app wants the web renderer and a directory with index.html, and says so",
    arguments: [
      (["--app", "."], "--app serves a web page: add --renderer web"),
      (
        ["--app", ".", "--renderer", "web", "--layout", "x.json"],
        "--app is the screen's app and layout"
      ),
      (["--app", "/nonexistent-tenfoot-app", "--renderer", "web"], "--app: "),
      (["--app", repositoryRoot() + "/docs", "--renderer", "web"], "index.html: "),
    ])
  func refusedOptions(arguments: [String], message: String) throws {
    let screen = try ChildProcess(TestEnvironment.binary("tenfoot-screen"), arguments)
    let status = try screen.waitForExit(timeout: 10)
    #expect(status != 0)
    #expect(screen.errors.joined(separator: "\n").contains(message), "\(screen.errors)")
  }

  /// An app directory with `body` as its page's body and `script` after `tenfoot.js`.
  static func appDirectory(_ stack: Stack, body: String, script: String) throws -> String {
    try appDirectory(in: stack.directory.path, body: body, script: script)
  }

  /// The same page in `parent`/app.
  static func appDirectory(in parent: String, body: String, script: String) throws -> String {
    let directory = parent + "/app"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try """
    <!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="page.css">
    <script type="module" src="page.js"></script></head><body>\(body)</body></html>
    """.write(toFile: directory + "/index.html", atomically: true, encoding: .utf8)
    try "import tenfoot from '/tenfoot.js';\n\(script)".write(
      toFile: directory + "/page.js", atomically: true, encoding: .utf8)
    try """
    body { margin: 0; font: 12px sans-serif; } button { border: 0; margin: 0; padding: 0; }
    .grid { display: grid; grid-template-columns: repeat(100, 40px); gap: 4px; }
    .grid button { width: 40px; height: 20px; }
    .row button { width: 100px; height: 60px; margin-right: 20px; }
    """.write(toFile: directory + "/page.css", atomically: true, encoding: .utf8)
    return directory
  }

  @Test("a page marking 10,000 elements registers and moves focus", .enabled(if: enabled))
  func tenThousand() async throws {
    try await WebAppTests.withApp(
      body: #"<div class="grid" data-focus-group="grid"></div>"#,
      script: """
        const grid = document.querySelector('.grid');
        for (let i = 0; i < 10000; i++) {
          const b = document.createElement('button');
          b.dataset.focusId = 'b' + i;
          b.textContent = String(i);
          grid.append(b);
        }
        """
    ) { devtools, page in
      let stack = page.stack
      try await devtools.waitFor(
        "the first of 10,000 focused", "\(Self.state("b0")) === 'focused'", timeout: 30)
      let moved = try Self.press(stack, "right", "down")
      #expect(moved.first?.hasSuffix("focused b1") == true, "\(moved)")
      #expect(moved.last?.hasSuffix("focused b101") == true, "\(moved)")
      try await devtools.waitFor(
        "b101 focused in the DOM",
        "\(Self.state("b101")) === 'focused' && \(Self.state("b0")) === null")
      let count = try await devtools.evaluate("tenfoot.measure().items.length")
      #expect(count as? Int == 10_000)
    }
  }

  @Test(
    "after kill -9 of the broker the screen re-registers the page's layout with focus where it was",
    .enabled(if: enabled))
  func brokerRestart() async throws {
    let buttons = (0..<4).map { #"<button data-focus-id="c\#($0)">C\#($0)</button>"# }
    try await WebAppTests.withApp(
      body: #"<div class="row" data-focus-group="row">\#(buttons.joined())</div>"#,
      script: ""
    ) { devtools, page in
      let stack = page.stack
      try await devtools.waitFor("c0 focused", "\(Self.state("c0")) === 'focused'")
      #expect(try Self.press(stack, "right").last?.hasSuffix("focused c1") == true)
      let mirror = try stack.screen(["--mirror"])
      defer { mirror.kill() }
      let before = try mirror.waitForFrame("the mirror sees c1") { $0.focused == "c1" }
      try stack.restartBroker()
      try mirror.waitForFrame(from: before.index + 1, "the new broker's session: c1 focused") {
        $0.epoch != before.frame.epoch && $0.focused == "c1" && $0.states["c3"] != nil
      }
      let after = try Self.press(stack, "right")
      #expect(
        after.last?.hasSuffix("focused c2") == true, "the page's layout, focus kept: \(after)")
      try await devtools.waitFor(
        "c2 focused in the DOM after the restart", "\(Self.state("c2")) === 'focused'")
    }
  }

  @Test(
    "removing the focused element moves focus to a near neighbour; bad page input gets an error back and the screen keeps serving",
    .enabled(if: enabled))
  func removalAndBadInput() async throws {
    let buttons = (0..<5).map { #"<button data-focus-id="c\#($0)">C\#($0)</button>"# }
    try await WebAppTests.withApp(
      body: #"<div class="row" data-focus-group="row">\#(buttons.joined())</div>"#,
      script: """
        globalThis.errors = [];
        document.addEventListener('tenfoot:error', (e) => errors.push(e.detail.message));
        """
    ) { devtools, page in
      let stack = page.stack
      try await devtools.waitFor("c0 focused", "\(Self.state("c0")) === 'focused'")
      let moved = try Self.press(stack, "right", "right")
      #expect(moved.last?.hasSuffix("focused c2") == true, "\(moved)")
      try await devtools.waitFor("c2 focused", "\(Self.state("c2")) === 'focused'")
      _ = try await devtools.evaluate("document.querySelector('[data-focus-id=c2]').remove()")
      try await devtools.waitFor(
        "focus recovered to a neighbour of the removed element",
        "['c1', 'c3'].includes(tenfoot.focused) && \(Self.state("c1")) !== \(Self.state("c3"))")
      let focused = try await devtools.evaluate("tenfoot.focused") as? String
      try await devtools.waitFor(
        "the neighbour carries the state", "\(Self.state(focused ?? "c1")) === 'focused'")

      // An id the layout format refuses: the page hears why, and the screen keeps serving.
      _ = try await devtools.evaluate(
        """
        const bad = document.createElement('button');
        bad.dataset.focusId = 'not an id!'; bad.textContent = 'bad';
        document.querySelector('.row').append(bad); true
        """)
      try await devtools.waitFor(
        "the refusal reaches the page", "errors.some((m) => m.includes('items[4].id'))")
      _ = try await devtools.evaluate("tenfoot.focus('nowhere'); true")
      try await devtools.waitFor(
        "an unknown focus id is refused", "errors.some((m) => m.includes('nowhere'))")
      _ = try await devtools.evaluate(
        "document.querySelector('[data-focus-id=\"not an id!\"]').remove(); true")
      let after = try Self.press(stack, "right")
      #expect(
        after.last?.hasSuffix("focused c4") == true || after.last?.hasSuffix("focused c3") == true,
        "\(after)")
    }
  }
}
