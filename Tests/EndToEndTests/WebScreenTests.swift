import Foundation
import HummingbirdWSClient
import Logging
import TestSupport
import Testing

/// The web renderer across processes: a real broker, `tenfoot-screen --renderer web` and
/// remotes; headless Chromium (Debian's `chromium`) loads the page and the test reads its DOM,
/// and a WebSocket client plays the page to check the stream and the page-as-remote path.
@Suite("Web renderer across processes", .serialized)
struct WebScreenTests {
  /// A row of posters with layers (`p0`…`p5`, `p2` unavailable with the badge "Coming soon")
  /// under a menu bar.
  static let layout = {
    var items: [String] = []
    for column in 0..<6 {
      let available = column == 2 ? #", "available": false, "badge": "Coming soon""# : ""
      items.append(
        #"{"id": "p\#(column)", "title": "Poster \#(column)", "frame": [\#(100 + column * 300), 300, 270, 400]\#(available), "layers": [{"name": "back", "depth": 0}, {"name": "front", "depth": 1}]}"#
      )
    }
    items.append(
      #"{"id": "heading", "title": "Up Next", "kind": "label", "frame": [100, 230, 900, 50]}"#)
    for column in 0..<3 {
      items.append(
        #"{"id": "m\#(column)", "title": "Menu \#(column)", "frame": [\#(600 + column * 250), 60, 220, 70]}"#
      )
    }
    return
      #"{"canvas": {"width": 1920, "height": 1080}, "initialFocus": "p0", "items": [\#(items.joined(separator: ", "))]}"#
  }()

  /// Chromium's path, or nil when it is not installed. `scripts/test` installs it and sets
  /// `TENFOOT_REQUIRE_BROWSER=1`, so in CI a missing browser fails instead of skipping.
  static let chromium = HeadlessChromium.path
  static let browserRequired = ProcessInfo.processInfo.environment["TENFOOT_REQUIRE_BROWSER"] == "1"

  /// Starts the stack, the web screen on a free port, and a headless mirror to observe
  /// frames; returns the page URL once the first frame is applied.
  func start() throws -> (stack: Stack, web: ChildProcess, mirror: ChildProcess, url: String) {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("posters.json", Self.layout)
    let (web, url) = try stack.webScreen(["--layout", file])
    #expect(!url.contains(":0/"), "port 0 must print the real port: \(url)")
    #expect(url.contains("/?key="), "the URL carries the page's access key: \(url)")
    let mirror = try stack.screen(["--mirror"])
    try mirror.waitForFrame("the mirror's first frame") { $0.focused == "p0" }
    return (stack, web, mirror, url)
  }

  /// The WebSocket URL a page at `url` (`http://HOST:PORT/?key=KEY`) opens, or with `key`
  /// replaced (nil: none).
  static func socketURL(from url: String, key: String?? = .none) -> String {
    let parts = url.split(separator: "?", maxSplits: 1)
    let base = parts[0].replacingOccurrences(of: "http://", with: "ws://")
    let printed = parts.count > 1 ? String(parts[1].dropFirst("key=".count)) : nil
    let chosen: String? =
      switch key {
      case .none: printed
      case .some(let replacement): replacement
      }
    return base + "ws" + (chosen.map { "?key=\($0)" } ?? "")
  }

  /// The page's DOM once `ready` holds for it: Chromium loads the page and runs it for
  /// `budget` ms of virtual time, up to `attempts` times (on a loaded machine the page's
  /// WebSocket may not have delivered its first frames within one run). Returns the last DOM;
  /// the caller's expectations then say what was missing.
  func dumpDOM(
    _ url: String, in directory: TemporaryDirectory, budget: Int = 2000, attempts: Int = 5,
    until ready: (String) -> Bool
  ) throws -> String {
    var dom = ""
    for _ in 0..<attempts {
      dom = try dumpDOM(url, in: directory, budget: budget)
      if ready(dom) { break }
    }
    return dom
  }

  /// The page's DOM after Chromium ran it for `budget` ms of virtual time.
  func dumpDOM(_ url: String, in directory: TemporaryDirectory, budget: Int = 2000) throws
    -> String
  {
    let chromium = try #require(Self.chromium, "chromium is not installed")
    let browser = try ChildProcess(
      chromium,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--user-data-dir=\(directory.path)/chromium", "--virtual-time-budget=\(budget)",
        "--dump-dom", url,
      ])
    let status = try browser.waitForExit(timeout: 60)
    #expect(status == 0, "chromium failed: \(browser.errors.suffix(5))")
    return browser.output.joined(separator: "\n")
  }

  /// The opening tag of the element with `id`, from a dumped DOM.
  func tag(_ id: String, in dom: String) -> String? {
    guard let start = dom.range(of: #"id="item-\#(id)""#) else { return nil }
    let open = dom[..<start.lowerBound].lastIndex(of: "<") ?? start.lowerBound
    let close = dom[start.upperBound...].firstIndex(of: ">") ?? dom.endIndex
    return String(dom[open..<close])
  }

  /// The number in `name(…deg)` inside a transform, e.g. rotateY.
  func angle(_ name: String, in tag: String) -> Double? {
    guard let start = tag.range(of: "\(name)(") else { return nil }
    let rest = tag[start.upperBound...]
    guard let end = rest.range(of: "deg)") else { return nil }
    return Double(rest[..<end.lowerBound])
  }

  @Test(
    "headless Chromium shows the focused poster focused with a 3D tilt while a drag rests, and the unavailable one dimmed",
    .enabled(if: chromium != nil || browserRequired))
  func browserShowsFocusAndTilt() throws {
    let (stack, web, mirror, url) = try start()
    // The page right after loading: the initial focus and the unavailable poster.
    let first = try dumpDOM(url, in: stack.directory) {
      tag("p0", in: $0)?.contains(#"class="item focused"#) == true
    }
    let p0 = try #require(tag("p0", in: first), "no p0 in the page:\n\(first.prefix(2000))")
    #expect(p0.contains(#"class="item focused"#), "\(p0)")
    let p2 = try #require(tag("p2", in: first))
    #expect(p2.contains(#"class="item unavailable"#), "\(p2)")
    #expect(first.contains("Coming soon"))
    let heading = try #require(
      first.range(of: #"id="label-heading""#).map { first[$0.lowerBound...].prefix(300) },
      "the heading is drawn")
    #expect(heading.contains(#"class="label""#) && heading.contains("Up Next"), "\(heading)")

    // A real remote moves focus, then rests a finger to the right: the poster tilts.
    let press = try stack.remote(["press", "right"])
    #expect(press.status == 0, "\(press.errors)")
    #expect(press.output.first?.contains("p1") == true, "\(press.output)")
    let drag = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      ["drag", "--to", "0.3,0", "--rest", "8s"] + stack.endpointArguments,
      environment: stack.environment)
    let tilted = try mirror.waitForFrame("the mirror sees the tilt") {
      $0.focused == "p1" && ($0.rotateY ?? 0) > 0.5
    }
    let dom = try dumpDOM(url, in: stack.directory) { dom in
      tag("p1", in: dom).flatMap { angle("rotateY", in: $0) }.map { $0 > 0.5 } == true
    }
    let p1 = try #require(tag("p1", in: dom))
    #expect(p1.contains(#"class="item focused"#), "\(p1)")
    let rotateY = try #require(angle("rotateY", in: p1), "no rotateY in \(p1)")
    #expect(
      rotateY > 0.5, "the page should tilt like the frame (\(tilted.frame.rotateY ?? 0)): \(p1)")
    #expect(p1.contains("perspective("), "\(p1)")
    #expect(p1.contains("scale(1.1)"), "\(p1)")
    let moved = try #require(tag("p0", in: dom))
    #expect(moved.contains(#"class="item unfocused"#), "\(moved)")
    #expect(angle("rotateY", in: moved) == 0, "\(moved)")
    let stillUnavailable = try #require(tag("p2", in: dom))
    #expect(stillUnavailable.contains(#"class="item unavailable"#), "\(stillUnavailable)")
    #expect(
      stillUnavailable.contains("box-shadow: rgba(0, 0, 0, 0) 0px 0px 0px"), "\(stillUnavailable)")
    drag.kill()
    try stopsCleanly(web)
  }

  @Test(
    "a page gets the layout and the current frame at once, its keys move focus, and it keeps receiving frames across a broker restart"
  )
  func pageStreamAndRemote() async throws {
    let (stack, web, mirror, url) = try start()
    let socketURL = Self.socketURL(from: url)
    let shared = Unchecked(value: stack)
    let screen = Unchecked(value: web)
    let steps = Steps()
    let reached = try await withThrowingTaskGroup(of: [String].self) { group in
      group.addTask {
        try await WebSocketClient.connect(url: socketURL, logger: Logger(label: "test.page")) {
          inbound, outbound, _ in
          var iterator = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
          func next(_ what: String, where predicate: ([String: Any]) -> Bool) async throws
            -> [String: Any]
          {
            while let message = try await iterator.next() {
              guard case .text(let text) = message else { continue }
              let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
              if let object, predicate(object) {
                steps.append(what)
                return object
              }
            }
            throw ChildProcessError(description: "the stream ended waiting for \(what)")
          }
          let layout = try await next("the layout") { $0["layout"] != nil }
          let items = (layout["layout"] as? [String: Any])?["items"] as? [[String: Any]]
          #expect(items?.count == 10, "six posters, a heading and three menu items")
          let first = try await next("the current frame") { $0["frame"] != nil }
          #expect((first["frame"] as? [String: Any])?["focused"] as? String == "p0")
          // The page as a remote: right (down, up) skips nothing; right again skips p2.
          for time in [1000, 1200] {
            try await outbound.write(.text(#"{"key":"right","phase":"down","t":\#(time)}"#))
            try await outbound.write(.text(#"{"key":"right","phase":"up","t":\#(time + 40)}"#))
          }
          try await outbound.write(.text(#"{"key":"nonsense","phase":"down"}"#))
          _ = try await next("focus on p3") {
            ($0["frame"] as? [String: Any])?["focused"] as? String == "p3"
          }
          let epoch = (first["frame"] as? [String: Any])?["epoch"] as? Int
          try shared.value.restartBroker()
          // The screen registers again what it showed, focus included.
          _ = try await next("a frame from the restarted broker") {
            guard let frame = $0["frame"] as? [String: Any] else { return false }
            return frame["epoch"] as? Int != epoch && frame["focused"] as? String == "p3"
          }
          try await outbound.write(.text(#"{"key":"right","phase":"down","t":5000}"#))
          try await outbound.write(.text(#"{"key":"right","phase":"up","t":5040}"#))
          _ = try await next("focus on p4 after the restart") {
            ($0["frame"] as? [String: Any])?["focused"] as? String == "p4"
          }
        }
        return steps.all
      }
      group.addTask {
        // Generous: a loaded 2-core machine (CI beside other builds) restarts a broker slowly.
        try await Task.sleep(for: .seconds(60))
        throw ChildProcessError(
          description: """
            the page test did not finish within 60 s; steps reached: \(steps.all); \
            the screen's log: \(screen.value.errors.suffix(15))
            """)
      }
      let result = try await group.next() ?? []
      group.cancelAll()
      return result
    }
    // The handler can return early (a connection closed without an error): every step must
    // have been reached, in order.
    #expect(
      reached == [
        "the layout", "the current frame", "focus on p3", "a frame from the restarted broker",
        "focus on p4 after the restart",
      ])
    try mirror.waitForFrame("the mirror agrees") { $0.focused == "p1" }
    try stopsCleanly(web)
  }

  /// SIGTERM stops the web screen (server included) with status 0.
  func stopsCleanly(_ web: ChildProcess) throws {
    web.signal(SIGTERM)
    let status = try web.waitForExit(timeout: 10)
    #expect(status == 0, "\(web.errors.suffix(5))")
  }
}

/// The page is a remote that bypasses pairing, so the stream needs the key the screen printed.
@Suite("Web renderer access key", .serialized)
struct WebAccessKeyTests {
  /// Whether a WebSocket to `url` opens (and gets its first message).
  static func opens(_ url: String) async -> Bool {
    let opened = Counter()
    do {
      try await WebSocketClient.connect(url: url, logger: Logger(label: "test.key")) {
        inbound, _, _ in
        var iterator = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
        if try await iterator.next() != nil { opened.add() }
      }
    } catch {
      return false
    }
    return opened.count > 0
  }

  @Test(
    "no key or a wrong key is refused, the printed key is let in, and the key survives a restart")
  func keyRequired() async throws {
    let setup = WebScreenTests()
    let (stack, web, mirror, url) = try setup.start()
    _ = mirror
    let printed = try #require(url.split(separator: "=").last.map(String.init))
    #expect(printed.count == 32, "a 128-bit key in hex: \(printed)")
    #expect(!(await Self.opens(WebScreenTests.socketURL(from: url, key: .some(nil)))), "no key")
    let wrong = String(printed.reversed())
    #expect(!(await Self.opens(WebScreenTests.socketURL(from: url, key: wrong))), "a wrong key")
    #expect(await Self.opens(WebScreenTests.socketURL(from: url)), "the printed key")
    try web.waitForErrorLine("the refusal logged") { $0.contains("page refused") }

    // A restarted screen with the same state directory prints the same key.
    try setup.stopsCleanly(web)
    let file = try stack.directory.write("posters.json", WebScreenTests.layout)
    let again = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      [
        "--layout", file, "--renderer", "web", "--listen", "127.0.0.1:0", "--state-dir",
        stack.directory.path + "/screen",
      ] + stack.endpointArguments, environment: stack.environment)
    let line = try again.waitForLine("the restarted screen's URL") {
      $0.hasPrefix("tenfoot-screen web http://127.0.0.1:")
    }
    #expect(line.line.hasSuffix("?key=\(printed)"), "\(line.line)")
    try setup.stopsCleanly(again)
  }
}
