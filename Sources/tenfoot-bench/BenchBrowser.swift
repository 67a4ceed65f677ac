import Dispatch
import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import TestSupport

/// Headless Chromium for the page benchmark, driven through the DevTools protocol
/// (`HeadlessChromium` and `DevTools`, shared with the browser tests).
final class BenchBrowser: @unchecked Sendable {
  // @unchecked Sendable is sound: its properties are constants, and the process is killed only
  // in deinit.
  /// Chromium's path, if installed.
  static let chromium = HeadlessChromium.path

  private let process: ChildProcess
  /// The page's DevTools WebSocket.
  let page: String

  /// Chromium opened at `url`, its profile in `profile`.
  init(url: String, profile: String) throws {
    (process, page) = try blocking { try await HeadlessChromium.open(url, profile: profile) }
  }

  deinit { stop() }

  /// Ends Chromium (idempotent).
  func stop() { process.kill() }

  /// Runs `body` with a DevTools session on the page.
  func withPage<T: Sendable>(_ body: @escaping @Sendable (DevTools) async throws -> T)
    throws -> T
  {
    try blocking { try await self.session { try await body($0.value) } }
  }

  /// Runs `body` with a DevTools session on the page, on the caller's task (so several pages'
  /// sessions can be open at once, one inside the other).
  func session<T: Sendable>(_ body: @escaping @Sendable (Unchecked<DevTools>) async throws -> T)
    async throws -> T
  {
    let result = Mutex<T?>(nil)
    try await WebSocketClient.connect(
      url: page, configuration: .init(maxFrameSize: 1 << 24), logger: Logger(label: "bench.cdp")
    ) { inbound, outbound, _ in
      let value = try await body(Unchecked(DevTools(inbound: inbound, outbound: outbound)))
      result.withLock { $0 = value }
    }
    guard let value = result.withLock({ $0 }) else { throw BenchError("DevTools closed") }
    return value
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
