import Foundation
import Hummingbird
import HummingbirdWSClient
import HummingbirdWebSocket
import Logging
import Synchronization
import TestSupport

/// The page path's floor: a bare Hummingbird WebSocket relay. The benchmark sends the frame's
/// bytes to `/send`; the relay writes them to the page on `/page`, which sets the attribute
/// as `tenfoot.js` does.
final class PageFloor: @unchecked Sendable {
  // @unchecked Sendable is sound: its properties are constants (the relay is lock-protected)
  // and the server task is cancelled only in deinit.

  /// The frame message a page gets for one step (the bytes the floor relays).
  static func frameBytes(focused: String, other: String) -> String {
    """
    {"frame":{"announcement":"\(focused), button, 2 of 2","events":[{"from":"\(other)","heading":"right","to":"\(focused)","type":"focus"}],"focused":"\(focused)","parallax":{"item":"\(focused)","rotateX":0,"rotateY":0,"scale":1.1,"shadowOffsetY":12,"shadowOpacity":0.5,"shadowRadius":24,"specularX":0.5,"specularY":0.5},"scroll":{},"seq":12,"states":{"\(focused)":"focused"},"text":{}}}
    """
  }

  static let page = """
    <!doctype html><html><body><div id="x0" data-focus-state="focused">A</div><div id="x1">B</div>
    <script>
    globalThis.arrival = null;
    \(PageBench.stateObserver)
    globalThis.ws = new WebSocket('ws://' + location.host + '/page');
    ws.onmessage = (e) => {
      globalThis.arrival = [performance.timeOrigin + performance.now(), null];
      const f = JSON.parse(e.data).frame;
      for (const el of document.querySelectorAll('[data-focus-state]')) {
        if (!f.states[el.id]) el.removeAttribute('data-focus-state');
      }
      for (const [id, s] of Object.entries(f.states)) document.getElementById(id).setAttribute('data-focus-state', s);
    };
    </script></body></html>
    """

  /// Where the relay writes: the page's stream.
  final class Relay: Sendable {
    let page = Mutex<AsyncStream<String>.Continuation?>(nil)
  }

  /// Chromium on the relay's page.
  let browser: BenchBrowser
  private let port: Int
  private let server: Task<Void, any Error>
  private let directory: TemporaryDirectory
  private static let quiet = {
    var logger = Logger(label: "bench.floor")
    logger.logLevel = .critical  // Its shutdown at the end is not news.
    return logger
  }()

  /// The relay listening and Chromium on its page.
  init() throws {
    let relay = Relay()
    let webSockets = Router(context: BasicWebSocketRequestContext.self)
    webSockets.ws("/page") { _, outbound, _ in
      let (stream, continuation) = AsyncStream.makeStream(of: String.self)
      relay.page.withLock { $0 = continuation }
      for await text in stream { try await outbound.write(.text(text)) }
    }
    webSockets.ws("/send") { inbound, _, _ in
      for try await message in inbound.messages(maxSize: 1 << 20) {
        if case .text(let text) = message { _ = relay.page.withLock { $0 }?.yield(text) }
      }
    }
    let router = Router()
    router.get("/") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: Self.page)))
    }
    let port = Mutex<Int?>(nil)
    let ready = DispatchSemaphore(value: 0)
    let application = Application(
      router: router, server: .http1WebSocketUpgrade(webSocketRouter: webSockets),
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in
        port.withLock { $0 = channel.localAddress?.port }
        ready.signal()
      },
      logger: Self.quiet)
    server = Task.detached { try await application.runService(gracefulShutdownSignals: []) }
    guard ready.wait(timeout: .now() + 10) == .success, let bound = port.withLock({ $0 }) else {
      server.cancel()
      throw BenchError("the floor relay did not listen within 10 s")
    }
    self.port = bound
    directory = try TemporaryDirectory()
    browser = try BenchBrowser(
      url: "http://127.0.0.1:\(bound)/", profile: directory.path + "/chromium")
  }

  deinit { stop() }

  /// Ends Chromium and the relay (idempotent; see `PageScreen.stop()`).
  func stop() {
    browser.stop()
    server.cancel()
  }

  /// Runs `body` with the relay's sending end open: `body` gets a press, which sends step
  /// `step`'s frame (x1 focused on even steps, x0 on odd ones).
  func withSender<T: Sendable>(
    _ body:
      @escaping @Sendable (_ press: @escaping @Sendable (Int) async throws -> Void)
      async throws -> T
  ) async throws -> T {
    let result = Mutex<T?>(nil)
    try await WebSocketClient.connect(
      url: "ws://127.0.0.1:\(port)/send", logger: Self.quiet
    ) { _, outbound, _ in
      let value = try await body { step in
        let (focused, other) = step % 2 == 0 ? ("x1", "x0") : ("x0", "x1")
        try await outbound.write(.text(Self.frameBytes(focused: focused, other: other)))
      }
      result.withLock { $0 = value }
    }
    guard let value = result.withLock({ $0 }) else { throw BenchError("the relay closed") }
    return value
  }

  /// Waits until the page's WebSocket is open and watches it from then on.
  func ready(_ devtools: DevTools) async throws {
    try await devtools.waitFor("the floor page connected", "ws.readyState === 1")
    try await PageBench.skipMarks(devtools)
  }
}

/// Hands a value that is not `Sendable` to a closure that uses it while the caller waits.
struct Unchecked<Value>: @unchecked Sendable {
  // @unchecked Sendable is sound: the caller awaits the closure, so one task uses it at a time.
  let value: Value
  init(_ value: Value) { self.value = value }
}
