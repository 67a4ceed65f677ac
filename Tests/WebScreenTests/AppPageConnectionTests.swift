import FocusEngine
import Foundation
import ScreenCore
import Testing

@testable import WebScreen

/// A developer's page's WebSocket (`--app`) from raw clients on real sockets: which connection
/// is the app, and whose errors go where.
@Suite("Web page server: which connection is the app, and its errors", .serialized)
struct AppPageConnectionTests {
  /// How a client opens `/ws`: the key in the query always; the key cookie the page's answer
  /// sets (a browser that loaded the page sends it); `role=app` (what `tenfoot.js` declares).
  struct Opening: Sendable, CustomTestStringConvertible {
    var cookie: Bool
    var role: Bool
    var testDescription: String {
      "\(cookie ? "with" : "without") the key cookie, \(role ? "with" : "without") role=app"
    }
    static let page = Opening(cookie: true, role: true)
  }

  /// A state frame of the screen `main` with sequence `seq`.
  static func frame(_ seq: UInt64) -> ScreenFrame {
    ScreenFrame(
      screen: "main", epoch: 1, seq: seq, layout: Layout(items: []), focused: nil, states: [:])
  }

  @Test(
    "a connection that is not an app page cannot take over a running app; a page that declares itself with the cookie can",
    arguments: [
      Opening(cookie: false, role: false), Opening(cookie: false, role: true),
      Opening(cookie: true, role: false),
    ])
  func noTakeOver(intruder: Opening) async throws {
    try await AppPageRouteTests.withApp { server in
      let heard = try await offPool {
        let app = try AppSocket(server, .page)
        try app.send(#"{"tenfoot":"first"}"#)
        _ = try app.waitFor("the app page hears its own error") { $0.contains("first") }
        let other = try AppSocket(server, intruder)
        try other.send(#"{"tenfoot":"intruder"}"#)
        try app.send(#"{"tenfoot":"second"}"#)
        let heard = try app.waitFor(
          "the app page is still the app (its messages are handled) after a connection \(intruder.testDescription)"
        ) { $0.contains("second") }
        let reloaded = try AppSocket(server, .page)
        _ = try app.waitFor("a reloaded app page takes over") { $0.contains("inactive") }
        try reloaded.send(#"{"tenfoot":"third"}"#)
        _ = try reloaded.waitFor("the reloaded page is the app") { $0.contains("third") }
        return heard
      }
      let toldInactive = heard.contains { $0.contains("inactive") }
      #expect(!toldInactive, "the app page was told it is not the app: \(heard)")
    }
  }

  @Test("a page's error goes to its own connection only; a page connecting later never hears it")
  func errorsStayWithTheirConnection() async throws {
    try await AppPageRouteTests.withApp { server in
      let heard = try await offPool {
        try server.handle.renderer.render(Self.frame(0))
        let first = try AppSocket(server, .page)
        try first.send(#"{"tenfoot":"bogus"}"#)
        _ = try first.waitFor("the first page hears its error") {
          $0.contains("appError") && $0.contains("bogus")
        }
        let second = try AppSocket(server, .page)
        try server.handle.renderer.render(Self.frame(1))
        try server.handle.renderer.render(Self.frame(2))
        return try second.waitFor("the second page gets frame 2") { $0.contains(#""seq":2"#) }
      }
      let heardError = heard.contains { $0.contains("appError") }
      #expect(!heardError, "the second page heard the first's error: \(heard)")
    }
  }
}

/// A raw WebSocket client of the page server's `/ws`: sends text messages (masked with a zero
/// key) and reads the server's text messages with deadlines. Blocking: use it off the pool.
final class AppSocket {
  private let connection: RawConnection
  /// Bytes read and not yet parsed into messages.
  private var pending: [UInt8]

  /// Opens `/ws` on `server` as `opening` says.
  init(_ server: WebServerHardeningTests.Server, _ opening: AppPageConnectionTests.Opening)
    throws
  {
    connection = try RawConnection(port: server.port)
    let query = "/ws?key=\(server.key.hex)" + (opening.role ? "&role=app" : "")
    var request = WebServerHardeningTests.upgrade(
      query, port: server.port, origin: "http://127.0.0.1:\(server.port)")
    if opening.cookie {  // before the blank line ("\r\n" is one Character)
      request = String(request.dropLast()) + "Cookie: tenfoot-key=\(server.key.hex)\r\n\r\n"
    }
    try connection.send(request)
    let response = try connection.response()
    guard response.status == 101 else {
      throw RawError("no upgrade: \(response.status) \(response.body)")
    }
    pending = response.bodyBytes
  }

  /// Sends `text` as one text message.
  func send(_ text: String) throws {
    let payload = Array(text.utf8)
    let frame = AppPageLimitTests.header(opcode: 1, fin: true, length: payload.count) + payload
    guard connection.send(bytes: frame) else { throw RawError("the server closed the socket") }
  }

  /// Reads text messages until one matches (within `timeout`); every message read, the
  /// matching one last. Throws, naming `what` and the messages read, when none does in time or
  /// the server closes the connection first.
  func waitFor(
    _ what: String, timeout: Duration = .seconds(10), _ matches: (String) -> Bool
  ) throws -> [String] {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var messages: [String] = []
    while true {
      while let message = nextMessage() {
        messages.append(message)
        if matches(message) { return messages }
      }
      guard clock.now < deadline else {
        throw RawError("\(what): not within \(timeout); read \(messages)")
      }
      switch connection.read(timeout: deadline - clock.now) {
      case .bytes(let bytes): pending += bytes
      case .closed: throw RawError("\(what): the server closed the socket; read \(messages)")
      case .nothing: continue
      }
    }
  }

  /// The next whole text message in `pending` (server frames are unmasked), or nil.
  private func nextMessage() -> String? {
    while pending.count >= 2 {
      let opcode = pending[0] & 0x0F
      var length = Int(pending[1] & 0x7F)
      var start = 2
      if length == 126 {
        guard pending.count >= 4 else { return nil }
        length = Int(pending[2]) << 8 | Int(pending[3])
        start = 4
      } else if length == 127 {
        guard pending.count >= 10 else { return nil }
        length = pending[2..<10].reduce(0) { $0 << 8 | Int($1) }
        start = 10
      }
      guard pending.count >= start + length else { return nil }
      let payload = Array(pending[start..<start + length])
      pending.removeFirst(start + length)
      if opcode == 1 { return String(decoding: payload, as: UTF8.self) }
    }
    return nil
  }
}
