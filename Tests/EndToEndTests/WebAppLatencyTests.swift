import Foundation
import Hummingbird
import HummingbirdWSClient
import HummingbirdWebSocket
import Logging
import Synchronization
import TestSupport
import Testing

/// What the page path costs: a remote's press until the page's element carries
/// `data-focus-state="focused"` in headless Chromium (the time a `MutationObserver` saw it,
/// read through DevTools), for a developer's page (`--app` with `tenfoot.js`), beside the
/// built-in web screen (its card's `focused` class) and the WebSocket floor: the same
/// frame's bytes sent by this process through a bare WebSocket relay to a page that sets the
/// same attribute. Prints p50/p95/p99; like the benchmarks, it never fails on timing (it
/// checks that every sample was seen).
@Suite("Latency of the web page path", .serialized)
struct WebAppLatencyTests {
  static let samples =
    Int(ProcessInfo.processInfo.environment["TENFOOT_PAGE_LATENCY_SAMPLES"] ?? "") ?? 200

  /// Records, in the page, when an element became focused: `marks` of [id, epoch ms].
  static func observer(attribute: String, focused: String) -> String {
    """
    globalThis.marks = [];
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target;
        if (\(focused)) marks.push([el.dataset.focusId || el.dataset.id || el.id,
          performance.timeOrigin + performance.now()]);
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['\(attribute)'] });
    """
  }

  /// Milliseconds from now until the page marks `id` focused, after `press` ran.
  static func time(_ devtools: DevTools, id: String, press: () async throws -> Void)
    async throws -> Double
  {
    let start = Date().timeIntervalSince1970 * 1000
    try await press()
    let seen = try await devtools.evaluate(
      """
      new Promise((resolve) => {
        const begun = Date.now();
        (function look() {
          const mark = marks.find((m) => m[0] === '\(id)' && m[1] >= \(start));
          if (mark) resolve(mark[1]); else if (Date.now() - begun > 5000) resolve(null);
          else setTimeout(look, 1);
        })();
      })
      """)
    let at = try #require(seen as? Double, "\(id) was not marked focused within 5 s")
    return at - start
  }

  /// p50, p95 and p99 of `values` (ms), printed under `name`.
  static func report(_ name: String, _ values: [Double]) -> [Double] {
    let sorted = values.sorted()
    let figures = [0.50, 0.95, 0.99].map {
      sorted[min(sorted.count - 1, Int($0 * Double(sorted.count)))]
    }
    print(
      String(
        format: "page latency %@: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms (%d samples)",
        name, figures[0], figures[1], figures[2], values.count))
    return figures
  }

  /// Times `samples` presses alternating right and left between `first` and `second`, sent by
  /// a long-lived `tenfoot-remote script -`.
  static func remotePresses(
    _ devtools: DevTools, stack: Stack, first: String, second: String
  ) async throws -> [Double] {
    let pipe = Pipe()
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"), ["script", "-"] + stack.endpointArguments,
      environment: stack.environment, stdin: pipe.fileHandleForReading)
    defer { remote.kill() }
    var times: [Double] = []
    for index in 0..<samples {
      let (key, target) = index % 2 == 0 ? ("right", second) : ("left", first)
      times.append(
        try await time(devtools, id: target) {
          pipe.fileHandleForWriting.write(Data("\(key)\n".utf8))
        })
    }
    return times
  }

  @Test(
    "remote press → focused in the page: the developer's page, the built-in web screen, the WebSocket floor",
    .enabled(if: WebAppTests.enabled))
  func pagePath() async throws {
    let stack = try Stack(.ipc)
    let app = try WebAppTests.appDirectory(
      stack,
      body:
        #"<div class="row"><button data-focus-id="x0">A</button><button data-focus-id="x1">B</button></div>"#,
      script: Self.observer(
        attribute: "data-focus-state", focused: "el.getAttribute('data-focus-state') === 'focused'")
    )
    var results: [String: [Double]] = [:]
    do {
      let (web, url) = try stack.webScreen(["--app", app, "--log-level", "warning"])
      defer { web.kill() }
      let shared = Unchecked(value: stack)
      let times = Mutex<[Double]>([])
      try await WebAppTests.withPage(url, stack: stack) { devtools in
        try await devtools.waitFor("x0 focused", "\(WebAppTests.state("x0")) === 'focused'")
        let measured = try await Self.remotePresses(
          devtools, stack: shared.value, first: "x0", second: "x1")
        times.withLock { $0 = measured }
      }
      results["app"] = times.withLock { $0 }
    }
    let builtIn = try Stack(.ipc)
    do {
      let layout = try builtIn.layoutFile(rows: 1, columns: 2)
      let (web, url) = try builtIn.webScreen(["--layout", layout, "--log-level", "warning"])
      defer { web.kill() }
      let shared = Unchecked(value: builtIn)
      let times = Mutex<[Double]>([])
      try await WebAppTests.withPage(url, stack: builtIn) { devtools in
        try await devtools.waitFor(
          "r0c0 focused", "document.querySelector('.item.focused')?.dataset.id === 'r0c0'")
        _ = try await devtools.evaluate(
          Self.observer(attribute: "class", focused: "el.classList.contains('focused')") + "true")
        let measured = try await Self.remotePresses(
          devtools, stack: shared.value, first: "r0c0", second: "r0c1")
        times.withLock { $0 = measured }
      }
      results["built-in"] = times.withLock { $0 }
    }
    results["floor"] = try await Self.floor(stack)
    for name in ["app", "built-in", "floor"] {
      let values = try #require(results[name])
      #expect(values.count == Self.samples)
      let figures = Self.report(name, values)
      results[name + "-figures"] = figures
    }
    if let app = results["app-figures"], let floor = results["floor-figures"], floor[1] > 0 {
      print(String(format: "page latency: app p95 / floor p95 = %.2f", app[1] / floor[1]))
    }
  }
}

extension WebAppLatencyTests {
  /// The frame message the app page gets for one step (the bytes the floor relays).
  static func frameBytes(focused: String, other: String) -> String {
    """
    {"frame":{"announcement":"\(focused), button, 2 of 2","events":[{"from":"\(other)","heading":"right","to":"\(focused)","type":"focus"}],"focused":"\(focused)","parallax":{"item":"\(focused)","rotateX":0,"rotateY":0,"scale":1.1,"shadowOffsetY":12,"shadowOpacity":0.5,"shadowRadius":24,"specularX":0.5,"specularY":0.5},"scroll":{},"seq":12,"states":{"\(focused)":"focused"},"text":{}}}
    """
  }

  /// The floor's page: sets the attribute from each frame, as `tenfoot.js` does.
  static let floorPage = """
    <!doctype html><html><body><div id="x0" data-focus-state="focused">A</div><div id="x1">B</div>
    <script>
    \(observer(attribute: "data-focus-state", focused: "el.getAttribute('data-focus-state') === 'focused'"))
    globalThis.ws = new WebSocket('ws://' + location.host + '/page');
    ws.onmessage = (e) => {
      const f = JSON.parse(e.data).frame;
      for (const el of document.querySelectorAll('[data-focus-state]')) {
        if (!f.states[el.id]) el.removeAttribute('data-focus-state');
      }
      for (const [id, s] of Object.entries(f.states)) document.getElementById(id).setAttribute('data-focus-state', s);
    };
    </script></body></html>
    """

  /// Relays each message from `/send` to the page on `/page`.
  final class Relay: Sendable {
    let page = Mutex<AsyncStream<String>.Continuation?>(nil)
  }

  /// The floor: a bare Hummingbird WebSocket relay, this process sending the frame's bytes.
  static func floor(_ stack: Stack) async throws -> [Double] {
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
        body: .init(byteBuffer: ByteBuffer(string: floorPage)))
    }
    let port = Mutex<Int?>(nil)
    var quiet = Logger(label: "test.floor")
    quiet.logLevel = .critical  // Its shutdown at the test's end is not news.
    let application = Application(
      router: router, server: .http1WebSocketUpgrade(webSocketRouter: webSockets),
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in port.withLock { $0 = channel.localAddress?.port } },
      logger: quiet)
    let server = Task { try await application.runService(gracefulShutdownSignals: []) }
    defer { server.cancel() }
    let deadline = Date().addingTimeInterval(10)
    while port.withLock({ $0 }) == nil && Date() < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    let bound = try #require(port.withLock { $0 }, "the floor relay did not listen")
    let times = Mutex<[Double]>([])
    try await WebAppTests.withPage("http://127.0.0.1:\(bound)/", stack: stack) { devtools in
      try await devtools.waitFor("the floor page connected", "ws.readyState === 1")
      let shared = Unchecked(value: devtools)
      try await WebSocketClient.connect(
        url: "ws://127.0.0.1:\(bound)/send", logger: Logger(label: "test.floor")
      ) { _, outbound, _ in
        var measured: [Double] = []
        for index in 0..<samples {
          let (focused, other) = index % 2 == 0 ? ("x1", "x0") : ("x0", "x1")
          measured.append(
            try await time(shared.value, id: focused) {
              try await outbound.write(.text(frameBytes(focused: focused, other: other)))
            })
        }
        times.withLock { $0 = measured }
      }
    }
    return times.withLock { $0 }
  }
}
