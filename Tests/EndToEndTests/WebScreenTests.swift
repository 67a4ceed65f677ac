import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import TestSupport
import Testing

/// The web renderer across processes: a real broker, `tenfoot-screen --renderer web` and
/// remotes; headless Chromium (Debian's `chromium`) loads the page and the test reads its DOM,
/// and a WebSocket client plays the page to check the stream and the page-as-remote path.
@Suite("Web renderer across processes", .serialized)
struct WebScreenTests {
  /// A row of posters with layers (`p0`…`p5`, `p2` unavailable) under a menu bar.
  static let layout = {
    var items: [String] = []
    for column in 0..<6 {
      let available = column == 2 ? #", "available": false"# : ""
      items.append(
        #"{"id": "p\#(column)", "title": "Poster \#(column)", "frame": [\#(100 + column * 300), 300, 270, 400]\#(available), "layers": [{"name": "back", "depth": 0}, {"name": "front", "depth": 1}]}"#
      )
    }
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
  static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static let browserRequired = ProcessInfo.processInfo.environment["TENFOOT_REQUIRE_BROWSER"] == "1"

  /// Starts the stack, the web screen on a free port, and a headless mirror to observe
  /// frames; returns the page URL once the first frame is applied.
  func start() throws -> (stack: Stack, web: ChildProcess, mirror: ChildProcess, url: String) {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("posters.json", Self.layout)
    let web = try ChildProcess(
      TestEnvironment.binary("tenfoot-screen"),
      ["--layout", file, "--renderer", "web", "--listen", "127.0.0.1:0"] + stack.endpointArguments,
      environment: stack.environment)
    let line = try web.waitForLine("the web renderer's listening line") {
      $0.hasPrefix("tenfoot-screen web http://127.0.0.1:")
    }
    let url = String(line.line.dropFirst("tenfoot-screen web ".count))
    #expect(!url.hasSuffix(":0/"), "port 0 must print the real port: \(url)")
    let mirror = try stack.screen(["--mirror"])
    try mirror.waitForFrame("the mirror's first frame") { $0.focused == "p0" }
    return (stack, web, mirror, url)
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
    let first = try dumpDOM(url, in: stack.directory)
    let p0 = try #require(tag("p0", in: first), "no p0 in the page:\n\(first.prefix(2000))")
    #expect(p0.contains(#"class="item focused"#), "\(p0)")
    let p2 = try #require(tag("p2", in: first))
    #expect(p2.contains(#"class="item unavailable"#), "\(p2)")
    #expect(first.contains("Coming soon"))

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
    let dom = try dumpDOM(url, in: stack.directory)
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
    let socketURL = url.replacingOccurrences(of: "http://", with: "ws://") + "ws"
    let shared = Unchecked(value: stack)
    let received = try await withThrowingTaskGroup(of: Int.self) { group in
      group.addTask {
        let counter = Counter()
        try await WebSocketClient.connect(url: socketURL, logger: Logger(label: "test.page")) {
          inbound, outbound, _ in
          var iterator = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
          func next(_ what: String, where predicate: ([String: Any]) -> Bool) async throws
            -> [String: Any]
          {
            while let message = try await iterator.next() {
              guard case .text(let text) = message else { continue }
              counter.add()
              let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
              if let object, predicate(object) { return object }
            }
            throw ChildProcessError(description: "the stream ended waiting for \(what)")
          }
          let layout = try await next("the layout") { $0["layout"] != nil }
          let items = (layout["layout"] as? [String: Any])?["items"] as? [[String: Any]]
          #expect(items?.count == 9)
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
          _ = try await next("a frame from the restarted broker") {
            guard let frame = $0["frame"] as? [String: Any] else { return false }
            return frame["epoch"] as? Int != epoch && frame["focused"] as? String == "p0"
          }
          try await outbound.write(.text(#"{"key":"right","phase":"down","t":5000}"#))
          try await outbound.write(.text(#"{"key":"right","phase":"up","t":5040}"#))
          _ = try await next("focus on p1 after the restart") {
            ($0["frame"] as? [String: Any])?["focused"] as? String == "p1"
          }
        }
        return counter.count
      }
      group.addTask {
        try await Task.sleep(for: .seconds(30))
        throw ChildProcessError(description: "the page test did not finish within 30 s")
      }
      let result = try await group.next() ?? 0
      group.cancelAll()
      return result
    }
    #expect(received >= 4, "layout, first frame, p3, restart, p1")
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

/// Hands a non-Sendable test value to a task that uses it while the test waits.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
}

/// Counts messages across the WebSocket handler's closure.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  func add() { lock.withLock { value += 1 } }

  var count: Int { lock.withLock { value } }
}

/// The page as a remote, in a real browser: headless Chromium driven over the DevTools
/// protocol presses keys and drags on the touch pad, and the focus and tilt come back.
@Suite("Web page as a remote", .serialized)
struct WebPageRemoteTests {
  @Test(
    "arrow keys and a drag on the page's touch pad reach the broker and come back as focus and tilt",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func keysAndPad() async throws {
    let setup = WebScreenTests()
    let (stack, web, mirror, url) = try setup.start()
    let chromium = try #require(WebScreenTests.chromium, "chromium is not installed")
    let browser = try ChildProcess(
      chromium,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--user-data-dir=\(stack.directory.path)/chromium-cdp", "--remote-debugging-port=0",
        "--remote-allow-origins=*",
        "--window-size=1280,720", url,
      ])
    let listening = try browser.waitForErrorLine("DevTools listening") {
      $0.contains("DevTools listening on ws://")
    }
    let browserSocket = try #require(listening.split(separator: " ").last.map(String.init))
    let port = try #require(
      browserSocket.split(separator: ":").dropFirst(2).first?.split(separator: "/").first)
    let page = try await Self.pageSocket(browser: browserSocket, port: String(port), url: url)
    let mirrorBox = Unchecked(value: mirror)
    try await WebSocketClient.connect(url: page, logger: Logger(label: "test.cdp")) {
      inbound, outbound, _ in
      let devtools = DevTools(inbound: inbound, outbound: outbound)
      try await devtools.waitFor(
        "p0 focused on the page", "document.querySelector('.item.focused')?.dataset.id === 'p0'")
      try await devtools.key("ArrowRight", code: 39)
      try await devtools.waitFor(
        "p1 focused on the page", "document.querySelector('.item.focused')?.dataset.id === 'p1'")
      try mirrorBox.value.waitForFrame("the broker moved focus to p1") { $0.focused == "p1" }
      // A finger on the pad's centre, slid right by 0.3 of its width, resting.
      let pad = try await devtools.evaluate(
        "(() => { const r = document.getElementById('pad').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, r.width]; })()"
      )
      let numbers = try #require(pad as? [Double], "pad rect: \(String(describing: pad))")
      let (x, y, width) = (numbers[0], numbers[1], numbers[2])
      try await devtools.mouse("mousePressed", x: x, y: y)
      for step in 1...10 {
        try await devtools.mouse("mouseMoved", x: x + Double(step) * 0.015 * width, y: y)
      }
      try await devtools.waitFor(
        "p1 tilted on the page",
        "/rotateY\\((\\d+\\.?\\d*)deg\\)/.test(document.getElementById('item-p1').style.transform) && parseFloat(document.getElementById('item-p1').style.transform.match(/rotateY\\(([-\\d.]+)deg\\)/)[1]) > 0.5"
      )
      try mirrorBox.value.waitForFrame("the broker tilts p1") {
        $0.focused == "p1" && ($0.rotateY ?? 0) > 0.5
      }
      try await devtools.mouse("mouseReleased", x: x + 0.15 * width, y: y)
      try await devtools.waitFor(
        "p1 back at rest after lift-off",
        "document.getElementById('item-p1').style.transform.includes('rotateY(0deg)')")
    }
    browser.kill()
    try setup.stopsCleanly(web)
  }

  /// The DevTools WebSocket of the page showing `url`, found through the browser's socket.
  static func pageSocket(browser: String, port: String, url: String) async throws -> String {
    let found = Mutex<String?>(nil)
    try await WebSocketClient.connect(url: browser, logger: Logger(label: "test.cdp")) {
      inbound, outbound, _ in
      let devtools = DevTools(inbound: inbound, outbound: outbound)
      let deadline = Date().addingTimeInterval(10)
      while Date() < deadline {
        let result = try await devtools.call("Target.getTargets")
        let targets = result["targetInfos"] as? [[String: Any]] ?? []
        if let page = targets.first(where: {
          $0["type"] as? String == "page" && $0["url"] as? String == url
        }), let id = page["targetId"] as? String {
          found.withLock { $0 = "ws://127.0.0.1:\(port)/devtools/page/\(id)" }
          return
        }
        try await Task.sleep(for: .milliseconds(50))  // Polls a listing, bounded by the deadline.
      }
    }
    return try #require(found.withLock { $0 }, "no DevTools page target for \(url) within 10 s")
  }
}

/// A minimal Chrome DevTools protocol client over one page's WebSocket.
final class DevTools {
  private var messages: WebSocketInboundMessageStream.AsyncIterator
  private let outbound: WebSocketOutboundWriter
  private var lastID = 0

  init(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) {
    messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
    self.outbound = outbound
  }

  /// Sends `method` and returns its result, skipping events.
  @discardableResult
  func call(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
    lastID += 1
    let id = lastID
    let request = try JSONSerialization.data(withJSONObject: [
      "id": id, "method": method, "params": params,
    ])
    try await outbound.write(.text(String(decoding: request, as: UTF8.self)))
    while let message = try await messages.next() {
      guard case .text(let text) = message,
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
        object["id"] as? Int == id
      else { continue }
      if let error = object["error"] { throw ChildProcessError(description: "\(method): \(error)") }
      return object["result"] as? [String: Any] ?? [:]
    }
    throw ChildProcessError(description: "DevTools closed during \(method)")
  }

  /// The value of a JavaScript expression (awaited if it is a promise).
  func evaluate(_ expression: String) async throws -> Any? {
    let result = try await call(
      "Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
    if let exception = result["exceptionDetails"] {
      throw ChildProcessError(description: "\(expression): \(exception)")
    }
    return (result["result"] as? [String: Any])?["value"]
  }

  /// Waits (in the page, up to 10 s) until `condition` is true. A page still navigating
  /// (its execution context replaced) is asked again.
  func waitFor(_ what: String, _ condition: String) async throws {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      let met: Any?
      do {
        met = try await evaluate(
          """
          new Promise((resolve) => {
            const start = Date.now();
            (function check() {
              let ok = false;
              try { ok = Boolean(\(condition)); } catch (e) {}
              if (ok) resolve(true); else if (Date.now() - start > 2000) resolve(false);
              else setTimeout(check, 20);
            })();
          })
          """)
      } catch let error as ChildProcessError where error.description.contains("context") {
        continue
      }
      if met as? Bool == true { return }
    }
    let state = try? await evaluate("document.getElementById('info')?.textContent")
    throw ChildProcessError(
      description: "timed out waiting for \(what); page: \(String(describing: state))")
  }

  /// Presses and releases a key.
  func key(_ key: String, code: Int) async throws {
    for type in ["keyDown", "keyUp"] {
      try await call(
        "Input.dispatchKeyEvent",
        ["type": type, "key": key, "code": key, "windowsVirtualKeyCode": code])
    }
  }

  /// A left-button mouse event (the page sees pointer events).
  func mouse(_ type: String, x: Double, y: Double) async throws {
    try await call(
      "Input.dispatchMouseEvent",
      [
        "type": type, "x": x, "y": y, "button": "left", "buttons": type == "mouseReleased" ? 0 : 1,
        "clickCount": 1,
      ])
  }
}
