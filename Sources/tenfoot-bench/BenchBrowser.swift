import Dispatch
import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import TestSupport

/// Headless Chromium for the page benchmark, driven through the DevTools protocol.
final class BenchBrowser {
  /// Chromium's path, if installed.
  static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  private let process: ChildProcess
  /// The page's DevTools WebSocket.
  let page: String

  /// Chromium opened at `url`, its profile in `profile`.
  init(url: String, profile: String) throws {
    guard let chromium = Self.chromium else { throw BenchError("chromium is not installed") }
    process = try ChildProcess(
      chromium,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--user-data-dir=\(profile)", "--remote-debugging-port=0", "--remote-allow-origins=*",
        "--window-size=1280,720", url,
      ])
    do {
      let listening = try process.waitForErrorLine("DevTools listening") {
        $0.contains("DevTools listening on ws://")
      }
      guard let socket = listening.split(separator: " ").last.map(String.init),
        let port = socket.split(separator: ":").dropFirst(2).first?.split(separator: "/").first
      else { throw BenchError("no DevTools address in \(listening)") }
      page = try blocking {
        try await Self.pageSocket(browser: socket, port: String(port), url: url)
      }
    } catch {
      process.kill()
      throw error
    }
  }

  deinit { process.kill() }

  /// The DevTools socket of the page target showing `url` (polled up to 10 s).
  private static func pageSocket(browser: String, port: String, url: String) async throws
    -> String
  {
    let found = Mutex<String?>(nil)
    try await WebSocketClient.connect(url: browser, logger: Logger(label: "bench.cdp")) {
      inbound, outbound, _ in
      let devtools = DevToolsSession(inbound: inbound, outbound: outbound)
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
        try await Task.sleep(for: .milliseconds(50))  // Polls a listing, bounded.
      }
    }
    guard let socket = found.withLock({ $0 }) else {
      throw BenchError("no DevTools page target for \(url) within 10 s")
    }
    return socket
  }

  /// Runs `body` with a DevTools session on the page.
  func withPage<T: Sendable>(_ body: @escaping @Sendable (DevToolsSession) async throws -> T)
    throws -> T
  {
    let page = page
    return try blocking {
      let result = Mutex<T?>(nil)
      try await WebSocketClient.connect(
        url: page, configuration: .init(maxFrameSize: 1 << 24), logger: Logger(label: "bench.cdp")
      ) { inbound, outbound, _ in
        let value = try await body(DevToolsSession(inbound: inbound, outbound: outbound))
        result.withLock { $0 = value }
      }
      guard let value = result.withLock({ $0 }) else { throw BenchError("DevTools closed") }
      return value
    }
  }
}

/// A minimal DevTools protocol session over one WebSocket.
final class DevToolsSession {
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
      if let error = object["error"] { throw BenchError("\(method): \(error)") }
      return object["result"] as? [String: Any] ?? [:]
    }
    throw BenchError("DevTools closed during \(method)")
  }

  /// The value of a JavaScript expression (awaited if it is a promise).
  func evaluate(_ expression: String) async throws -> Any? {
    let result = try await call(
      "Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
    if let exception = result["exceptionDetails"] { throw BenchError("\(exception)") }
    return (result["result"] as? [String: Any])?["value"]
  }

  /// Waits (up to `timeout` seconds) until `condition` holds in the page.
  func waitFor(_ what: String, _ condition: String, timeout: Double = 20) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if (try? await evaluate("Boolean(\(condition))")) as? Bool == true { return }
      try await Task.sleep(for: .milliseconds(20))  // Polls the page, bounded by the deadline.
    }
    throw BenchError("timed out waiting for \(what)")
  }
}

/// Runs `body` on a task and waits for it on this (non-pool) thread.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let result = Mutex<Result<T, any Error>?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    do {
      let value = try await body()
      result.withLock { $0 = .success(value) }
    } catch {
      result.withLock { $0 = .failure(error) }
    }
    done.signal()
  }
  done.wait()
  guard let outcome = result.withLock({ $0 }) else { throw BenchError("task ended without result") }
  return try outcome.get()
}
