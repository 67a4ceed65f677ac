import Foundation
import HummingbirdWSClient
import Logging
import Synchronization

/// A DevTools protocol failure: an error answer, a closed socket, a page exception, a timeout.
public struct DevToolsError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// A minimal Chrome DevTools protocol client over one page's WebSocket.
public final class DevTools {
  private var messages: WebSocketInboundMessageStream.AsyncIterator
  private let outbound: WebSocketOutboundWriter
  private var lastID = 0

  /// A session over a page's (or the browser's) DevTools WebSocket.
  public init(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) {
    messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
    self.outbound = outbound
  }

  /// Sends `method` and returns its result, skipping events.
  @discardableResult
  public func call(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
    try await result(of: try await send(method, params), method: method)
  }

  /// Sends `method` and returns its id at once; `result(of:method:)` waits for the answer.
  private func send(_ method: String, _ params: [String: Any]) async throws -> Int {
    lastID += 1
    let request = try JSONSerialization.data(withJSONObject: [
      "id": lastID, "method": method, "params": params,
    ])
    try await outbound.write(.text(String(decoding: request, as: UTF8.self)))
    return lastID
  }

  /// The answer to the request `id`, skipping events (and answers to earlier requests).
  private func result(of id: Int, method: String) async throws -> [String: Any] {
    while let message = try await messages.next() {
      guard case .text(let text) = message,
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
        object["id"] as? Int == id
      else { continue }
      if let error = object["error"] { throw DevToolsError("\(method): \(error)") }
      return object["result"] as? [String: Any] ?? [:]
    }
    throw DevToolsError("DevTools closed during \(method)")
  }

  /// The value of a JavaScript expression (awaited if it is a promise).
  public func evaluate(_ expression: String) async throws -> Any? {
    try await value(of: try await startEvaluating(expression), expression: expression)
  }

  /// Starts evaluating `expression` and returns at once: `value(of:)` with the returned id
  /// waits for its value. So a benchmark can arm a wait in the page before it acts, and the
  /// page does nothing for DevTools while the action's effect is on its way.
  public func startEvaluating(_ expression: String) async throws -> Int {
    try await send(
      "Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
  }

  /// The value of the evaluation `startEvaluating` started (no other request in between).
  public func value(of id: Int, expression: String? = nil) async throws -> Any? {
    let result = try await result(of: id, method: "Runtime.evaluate")
    if let exception = result["exceptionDetails"] {
      throw DevToolsError("\(expression ?? "evaluation \(id)"): \(exception)")
    }
    return (result["result"] as? [String: Any])?["value"]
  }

  /// Waits (in the page, up to 10 s) until `condition` is true. A page still navigating
  /// (its execution context replaced) is asked again.
  public func waitFor(_ what: String, _ condition: String, timeout: TimeInterval = 10) async throws
  {
    let deadline = Date().addingTimeInterval(timeout)
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
      } catch let error as DevToolsError where error.description.contains("context") {
        continue
      }
      if met as? Bool == true { return }
    }
    let state = try? await evaluate(
      "(document.getElementById('info') || document.body)?.textContent?.slice(0, 400)")
    throw ChildProcessError(
      description: "timed out waiting for \(what); page: \(String(describing: state))")
  }

  /// Presses and releases a key 50 ms apart, by the events' own timestamps (which the page
  /// forwards), however long the calls take on a busy machine.
  public func key(_ key: String, code: Int) async throws {
    let now = Date().timeIntervalSince1970
    for (type, time) in [("keyDown", now), ("keyUp", now + 0.05)] {
      try await call(
        "Input.dispatchKeyEvent",
        [
          "type": type, "key": key, "code": key, "windowsVirtualKeyCode": code,
          "timestamp": time,
        ])
    }
  }

  /// A left-button mouse event (the page sees pointer events) stamped `time` (seconds since
  /// 1970; the page forwards the event's own time).
  public func mouse(_ type: String, x: Double, y: Double, at time: Double) async throws {
    try await call(
      "Input.dispatchMouseEvent",
      [
        "type": type, "x": x, "y": y, "button": "left",
        "buttons": type == "mouseReleased" ? 0 : 1, "clickCount": 1, "timestamp": time,
      ])
  }
}

extension DevTools {
  /// A mouse move with no button held (a hover), stamped now.
  public func hover(x: Double, y: Double) async throws {
    try await call(
      "Input.dispatchMouseEvent",
      [
        "type": "mouseMoved", "x": x, "y": y, "button": "none", "buttons": 0,
        "timestamp": Date().timeIntervalSince1970,
      ])
  }
}

/// A finger resting on the web screen's touch pad, from ``DevTools/slideRightOnPad()``.
public struct PadTouch: Sendable {
  /// Where it rests, in CSS pixels, and the pad's width.
  public let x: Double
  public let y: Double
  public let width: Double
  /// When it touched (seconds since 1970, the events' stamps).
  public let down: Double
}

extension DevTools {
  /// Puts a finger on the centre of the page's touch pad (`#pad`) and slides it right by 0.15
  /// of the pad's width in ten moves stamped 20 ms apart (a deliberate slide, not a flick),
  /// leaving it resting there: the focused item tilts.
  public func slideRightOnPad() async throws -> PadTouch {
    let rect = try await evaluate(
      "(() => { const r = document.getElementById('pad').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, r.width]; })()"
    )
    guard let numbers = rect as? [Double], numbers.count == 3 else {
      throw DevToolsError("the page's pad rect: \(String(describing: rect))")
    }
    let (x, y, width) = (numbers[0], numbers[1], numbers[2])
    let down = Date().timeIntervalSince1970
    try await mouse("mousePressed", x: x, y: y, at: down)
    for step in 1...10 {
      try await mouse(
        "mouseMoved", x: x + Double(step) * 0.015 * width, y: y, at: down + Double(step) * 0.02)
    }
    return PadTouch(x: x + 0.15 * width, y: y, width: width, down: down)
  }

  /// Lifts a resting finger, stamped at least 0.5 s after it touched (a rest, not a flick).
  public func lift(_ touch: PadTouch) async throws {
    let lift = max(Date().timeIntervalSince1970, touch.down + 0.5)
    try await mouse("mouseReleased", x: touch.x, y: touch.y, at: lift)
  }
}

/// Headless Chromium with the DevTools protocol, as the browser tests and the page benchmark
/// open it.
public enum HeadlessChromium {
  /// Chromium's path, if installed (Debian's `chromium`).
  public static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Runs `body` with a DevTools session on the page at `url` in a headless Chromium (its
  /// profile in `profile`), and kills the browser afterwards, whatever `body` did.
  public static func withPage(
    _ url: String, profile: String, _ body: @escaping @Sendable (DevTools) async throws -> Void
  ) async throws {
    let (browser, page) = try await open(url, profile: profile)
    defer { browser.kill() }
    try await WebSocketClient.connect(
      url: page, configuration: .init(maxFrameSize: 1 << 24), logger: Logger(label: "test.cdp")
    ) { inbound, outbound, _ in
      try await body(DevTools(inbound: inbound, outbound: outbound))
    }
  }

  /// Chromium opened at `url` with the DevTools protocol on a free port, its profile in
  /// `profile`; returns the browser (the caller kills it) and the page's DevTools socket.
  public static func open(_ url: String, profile: String) async throws -> (
    browser: ChildProcess, page: String
  ) {
    guard let path else { throw DevToolsError("chromium is not installed") }
    let browser = try ChildProcess(
      path,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--user-data-dir=\(profile)", "--remote-debugging-port=0", "--remote-allow-origins=*",
        "--window-size=1280,720", url,
      ])
    do {
      let listening = try browser.waitForErrorLine("DevTools listening") {
        $0.contains("DevTools listening on ws://")
      }
      guard let socket = listening.split(separator: " ").last.map(String.init),
        let port = socket.split(separator: ":").dropFirst(2).first?.split(separator: "/").first
      else { throw DevToolsError("no DevTools address in \(listening)") }
      return (browser, try await pageSocket(browser: socket, port: String(port), url: url))
    } catch {
      browser.kill()
      throw error
    }
  }

  /// The DevTools WebSocket of the page showing `url`, found through the browser's socket.
  public static func pageSocket(browser: String, port: String, url: String) async throws -> String {
    let found = Mutex<String?>(nil)
    try await WebSocketClient.connect(url: browser, logger: Logger(label: "devtools")) {
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
    guard let socket = found.withLock({ $0 }) else {
      throw DevToolsError("no DevTools page target for \(url) within 10 s")
    }
    return socket
  }
}
