import Foundation
import Logging
import ScreenCore
import Synchronization
import TestSupport
import Testing

@testable import WebScreen

/// The page server against clients a browser is not: slow headers, idle and numerous
/// connections, WebSockets from other origins or with a wrong key. A real server on
/// 127.0.0.1 and real sockets; the tests of the timeouts shorten them to 300 ms.
@Suite("Web page server hardening", .serialized)
struct WebServerHardeningTests {
  static let key = WebAccessKey(hex: "00112233445566778899aabbccddeeff")

  /// A running page server: its port, key and logs, and its renderer (to render frames as the
  /// screen's loop would).
  struct Server: Sendable {
    let port: Int
    let key: WebAccessKey
    let logs: RecordingLogHandler.Box
    let handle: Handle
  }

  /// The renderer handed to the thread that starts or stops it.
  struct Handle: @unchecked Sendable {
    // @unchecked Sendable is sound: the test touches the renderer only from one thread at a
    // time (started, then stopped after the test's body).
    let renderer: WebRenderer
  }

  /// Timeouts short enough to wait for in a test. Only the tests of the timeouts use them: on a
  /// loaded machine (the whole suite on two cores) a server may not read a prompt request
  /// within 300 ms, and other tests would see their connection closed before their request.
  static let shortTimeouts = WebServerLimits(
    headerTimeout: .milliseconds(300), idleTimeout: .milliseconds(300))

  /// Runs `body` against a page server with `limits`, `origins` and `assets` on a free port,
  /// then stops it (starting and stopping block, so they run off the concurrency pool).
  static func withServer(
    limits: WebServerLimits = .init(headerTimeout: .seconds(30), idleTimeout: .seconds(30)),
    origins: [String] = [], assets: AssetDirectory? = nil, app: AssetDirectory? = nil,
    _ body: (Server) async throws -> Void
  ) async throws {
    let key = try #require(Self.key)
    let (logger, logs) = RecordingLogHandler.logger(label: "test.web")
    let url = Mutex<String?>(nil)
    let handle = Handle(
      renderer: WebRenderer(
        host: "127.0.0.1", port: 0, accessKey: key, logger: logger, limits: limits,
        origins: try WebOrigins.allowing(origins).get(), assets: assets, app: app,
        onListening: { printed in url.withLock { $0 = printed } }))
    try await offPool { try handle.renderer.start() }
    do {
      let printed = try #require(url.withLock { $0 })
      let port = try #require(
        printed.split(separator: ":").last?.split(separator: "/").first.flatMap { Int($0) },
        "no port in \(printed)")
      try await body(Server(port: port, key: key, logs: logs, handle: handle))
    } catch {
      _ = try? await offPool { handle.renderer.stop() }
      throw error
    }
    try await offPool { handle.renderer.stop() }
  }

  /// A WebSocket upgrade request for `path` with `origin` (nil: none) to the server at `port`.
  static func upgrade(_ path: String, port: Int, origin: String?) -> String {
    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
      + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      + "Sec-WebSocket-Version: 13\r\n" + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n"
  }

  /// Sends `request` on a fresh connection and returns the response.
  static func exchange(_ request: String, port: Int) async throws -> RawResponse {
    try await offPool {
      let connection = try RawConnection(port: port)
      try connection.send(request)
      return try connection.response()
    }
  }

  /// GETs `path` on a fresh connection and returns the response.
  static func get(_ path: String, port: Int) async throws -> RawResponse {
    try await exchange("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", port: port)
  }

  @Test("a client that sends its headers slowly is closed after the header timeout")
  func slowHeaders() async throws {
    try await Self.withServer(limits: Self.shortTimeouts) { server in
      let closedAfter = try #require(
        try await offPool {
          let slow = try RawConnection(port: server.port)
          try slow.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
          return slow.waitForClose(timeout: .seconds(5))
        },
        "a connection still sending its headers was open 5 s later (header timeout 300 ms)")
      #expect(closedAfter >= .milliseconds(250), "closed after \(closedAfter): before the timeout")
      #expect(closedAfter < .seconds(3), "closed after \(closedAfter)")
      // A whole request on time is answered.
      #expect(try await Self.get("/", port: server.port).status == 200)
      let notices = server.logs.all.filter { $0.message.contains("headers too slow") }
      #expect(notices.count == 1, "one throttled notice: \(notices)")
      let errors = server.logs.all.filter { $0.level >= .warning }
      #expect(errors.isEmpty, "a slow client is not an error: \(errors)")
    }
  }

  @Test("a kept-alive connection without a next request is closed after the idle timeout")
  func idleKeepAlive() async throws {
    try await Self.withServer(limits: Self.shortTimeouts) { server in
      let (status, closing) = try await offPool {
        let connection = try RawConnection(port: server.port)
        try connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
        return (try connection.response().status, connection.waitForClose(timeout: .seconds(5)))
      }
      #expect(status == 200)
      let closedAfter = try #require(
        closing, "an idle kept-alive connection was open 5 s later (idle timeout 300 ms)")
      #expect(closedAfter >= .milliseconds(200), "closed after \(closedAfter)")
    }
  }

  @Test("over the connection cap new connections are closed at once; the page answers once they go")
  func connectionCap() async throws {
    let cap = 4
    // An hour between notices: the one notice must not depend on how fast a loaded machine
    // runs the test (with the standard 10 s, a 22 s run logged two).
    let limits = WebServerLimits(
      headerTimeout: .seconds(30), idleTimeout: .seconds(30), maxConnections: cap,
      noticeInterval: .seconds(3600))
    try await Self.withServer(limits: limits) { server in
      let connections = try (0..<(cap + 3)).map { _ in try RawConnection(port: server.port) }
      // The server takes them in some order (each on its own event loop): three are closed at
      // once, whichever they are, and the others stay open.
      let closed = try await offPool {
        RawConnection.closed(connections, count: 3, timeout: .seconds(5))
      }
      #expect(closed.count == 3, "closed at once: \(closed.sorted())")
      let held = connections.indices.filter { !closed.contains($0) }
      for index in held {
        #expect(
          connections[index].read(timeout: .zero) == .nothing, "connection \(index) stays open")
      }
      // While the cap is full a new connection is closed too.
      let extra = try RawConnection(port: server.port)
      #expect(
        try await offPool { extra.waitForClose(timeout: .seconds(3)) } != nil,
        "a connection over the cap is closed")
      let notices = server.logs.all.filter { $0.message.contains("too many open") }
      #expect(notices.count == 1, "one throttled notice for four refusals: \(notices)")
      let errors = server.logs.all.filter { $0.level >= .warning }
      #expect(errors.isEmpty, "refusals at the cap are not errors: \(errors)")
      // The held ones leave: the page answers again.
      for index in held { connections[index].shutdown() }
      let clock = ContinuousClock()
      let deadline = clock.now + .seconds(5)
      var status: Int?
      while status != 200 && clock.now < deadline {
        status = try? await Self.get("/", port: server.port).status
      }
      #expect(status == 200, "the page answers within 5 s after the held connections closed")
    }
  }

  @Test("one client address cannot take every connection: another address is still answered")
  func perAddressCap() async throws {
    let limits = WebServerLimits(
      headerTimeout: .seconds(30), idleTimeout: .seconds(30), maxConnections: 8,
      maxConnectionsPerAddress: 2)
    try await Self.withServer(limits: limits) { server in
      let greedy = try (0..<3).map { _ in try RawConnection(port: server.port) }
      let closed = try await offPool {
        RawConnection.closed(greedy, count: 1, timeout: .seconds(5))
      }
      #expect(closed.count == 1, "one over the address's limit closed at once: \(closed.sorted())")
      let response = try await offPool {
        let other = try RawConnection(port: server.port, from: "127.0.0.2")
        try other.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
        return try other.response()
      }
      #expect(response.status == 200, "another client is answered")
    }
  }

  @Test("a WebSocket from a foreign origin is refused 403; the same or a listed origin is upgraded")
  func origins() async throws {
    try await Self.withServer(origins: ["http://tv.example:8080"]) { server in
      let path = "/ws?key=\(server.key.hex)"
      let cases: [(origin: String?, status: Int)] = [
        ("http://evil.example", 403),
        ("http://127.0.0.1:\(server.port)", 101),
        ("http://tv.example:8080", 101),
        ("HTTP://TV.EXAMPLE:8080", 101),
        ("https://tv.example:8080", 403),
        ("http://127.0.0.1:\(server.port + 1)", 403),
        ("null", 403),
        (nil, 101),
      ]
      for (origin, status) in cases {
        let response = try await Self.exchange(
          Self.upgrade(path, port: server.port, origin: origin), port: server.port)
        #expect(response.status == status, "Origin \(origin ?? "none"): \(response.status)")
        if status == 403 {
          #expect(response.body.contains("origin"), "the reason: \(response.body)")
          #expect(response.headers["x-content-type-options"] == "nosniff")
        }
      }
      let refusals = server.logs.all.filter { $0.message == "page refused" }
      #expect(refusals.count == 4, "each refusal logged: \(refusals.map(\.metadata))")
      #expect(refusals.first?.metadata.contains("origin=http://evil.example") == true)
    }
  }

  @Test("a WebSocket with a wrong or missing key is refused 403 with the reason, and logged")
  func wrongKey() async throws {
    try await Self.withServer { server in
      let wrong = String(server.key.hex.reversed())
      for path in ["/ws?key=\(wrong)", "/ws", "/ws?key="] {
        let response = try await Self.exchange(
          Self.upgrade(path, port: server.port, origin: "http://127.0.0.1:\(server.port)"),
          port: server.port)
        #expect(response.status == 403, "\(path): \(response.status)")
        #expect(response.body.contains("wrong key"), "\(path): \(response.body)")
      }
      let refusals = server.logs.all.filter { $0.message == "page refused" }
      #expect(refusals.count == 3)
      // Nothing logged above debug carries the key, the wrong one or the right one.
      for entry in server.logs.all where entry.level > .debug {
        #expect(!entry.metadata.contains(server.key.hex) && !entry.metadata.contains(wrong))
      }
    }
  }

  @Test("every response carries the CSP (a fresh nonce per page), no-referrer and nosniff")
  func headers() async throws {
    try await Self.withServer { server in
      let first = try await Self.get("/?key=\(server.key.hex)", port: server.port)
      let second = try await Self.get("/", port: server.port)
      for response in [first, second] {
        #expect(response.status == 200)
        let policy = try #require(response.headers["content-security-policy"])
        for directive in [
          "default-src 'self'", "frame-ancestors 'none'", "img-src 'self' data:",
          "connect-src 'self' ws://127.0.0.1:\(server.port) wss://127.0.0.1:\(server.port)",
        ] {
          #expect(policy.contains(directive), "\(directive) in \(policy)")
        }
        let nonce = try #require(
          policy.components(separatedBy: "; ").first { $0.hasPrefix("script-src") }?
            .components(separatedBy: "'nonce-").last?.dropLast(), "\(policy)")
        #expect(policy.contains("style-src 'self' 'nonce-\(nonce)'"), "\(policy)")
        #expect(!response.body.contains(PageSecurity.nonceMarker))
        #expect(response.body.contains(#"<script nonce="\#(nonce)">"#))
        #expect(!response.body.contains("<script>") && !response.body.contains("<style>"))
        #expect(response.headers["referrer-policy"] == "no-referrer")
        #expect(response.headers["x-content-type-options"] == "nosniff")
      }
      #expect(
        first.headers["content-security-policy"] != second.headers["content-security-policy"])
      let statuses = ["/nothing-here": 404, "/ws": 403, "/ws?key=\(server.key.hex)": 426]
      for (path, status) in statuses {
        let response = try await Self.get(path, port: server.port)
        #expect(response.status == status, "\(path)")
        #expect(
          response.headers["content-security-policy"] == PageSecurity.strictPolicy, "\(path)")
        #expect(response.headers["referrer-policy"] == "no-referrer", "\(path)")
        #expect(response.headers["x-content-type-options"] == "nosniff", "\(path)")
      }
    }
  }
}
