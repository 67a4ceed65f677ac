import Foundation
import HummingbirdWSClient
import TestSupport

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
  func waitFor(_ what: String, _ condition: String, timeout: TimeInterval = 10) async throws {
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
      } catch let error as ChildProcessError where error.description.contains("context") {
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
  func key(_ key: String, code: Int) async throws {
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
  func mouse(_ type: String, x: Double, y: Double, at time: Double) async throws {
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
  func hover(x: Double, y: Double) async throws {
    try await call(
      "Input.dispatchMouseEvent",
      [
        "type": "mouseMoved", "x": x, "y": y, "button": "none", "buttons": 0,
        "timestamp": Date().timeIntervalSince1970,
      ])
  }
}

/// Hands a non-Sendable test value to a task that uses it while the test waits.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
}

/// The steps a WebSocket handler's closure reached, in order.
final class Steps: @unchecked Sendable {
  // @unchecked Sendable is sound: `steps` is touched only under `lock`.
  private let lock = NSLock()
  private var steps: [String] = []

  func append(_ step: String) { lock.withLock { steps.append(step) } }

  var all: [String] { lock.withLock { steps } }
}

/// Counts messages across the WebSocket handler's closure.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  func add() { lock.withLock { value += 1 } }

  var count: Int { lock.withLock { value } }
}
