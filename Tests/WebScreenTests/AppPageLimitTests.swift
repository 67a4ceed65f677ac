import Foundation
import Testing

@testable import WebScreen

/// A developer's page's WebSocket (`--app`) against messages over its 8 MiB limit, from a raw
/// client on a real socket: the connection is closed with code 1009 ("message too big", which
/// `tenfoot.js` reports as `tenfoot:error`) and the server goes on serving.
@Suite("Web page server: a page's message over 8 MiB", .serialized)
struct AppPageLimitTests {
  /// A client's (masked, zero key) WebSocket frame header for `length` payload bytes.
  static func header(opcode: UInt8, fin: Bool, length: Int) -> [UInt8] {
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
    switch length {
    case ..<126: bytes.append(0x80 | UInt8(length))
    case ..<65536: bytes += [0x80 | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
    default: bytes += [0x80 | 127] + (0..<8).reversed().map { UInt8((length >> ($0 * 8)) & 0xFF) }
    }
    return bytes + [0, 0, 0, 0]
  }

  /// A text message of `size` bytes in `parts` frames.
  static func message(size: Int, parts: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    let part = size / parts
    for index in 0..<parts {
      let length = index == parts - 1 ? size - part * (parts - 1) : part
      bytes += header(opcode: index == 0 ? 1 : 0, fin: index == parts - 1, length: length)
      bytes += [UInt8](repeating: 0x20, count: length)
    }
    return bytes
  }

  /// Upgrades a raw connection to the page's WebSocket, sends `bytes`, and returns what the
  /// server sent until it closed the connection (within 10 s).
  static func send(_ bytes: [UInt8], port: Int, key: WebAccessKey) throws -> [UInt8] {
    let connection = try RawConnection(port: port)
    try connection.send(
      WebServerHardeningTests.upgrade(
        "/ws?key=\(key.hex)", port: port, origin: "http://127.0.0.1:\(port)"))
    let response = try connection.response()
    #expect(response.status == 101)
    _ = connection.send(bytes: bytes)
    var received = response.bodyBytes
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(10)
    while clock.now < deadline {
      switch connection.read(timeout: deadline - clock.now) {
      case .bytes(let bytes): received += bytes
      case .closed: return received
      case .nothing: break
      }
    }
    Issue.record("the server did not close the connection within 10 s")
    return received
  }

  /// The close code in the first close frame the server sent, if any.
  static func closeCode(_ bytes: [UInt8]) -> Int? {
    var index = 0
    while index + 1 < bytes.count {
      let opcode = bytes[index] & 0x0F
      var length = Int(bytes[index + 1] & 0x7F)
      var start = index + 2
      if length == 126, start + 1 < bytes.count {
        length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
        start += 2
      } else if length == 127 {
        return nil  // the server sends nothing that big here
      }
      if opcode == 8, length >= 2, start + 1 < bytes.count {
        return Int(bytes[start]) << 8 | Int(bytes[start + 1])
      }
      index = start + length
    }
    return nil
  }

  @Test(
    "one frame or several over 8 MiB are closed with 1009; a new connection is served after",
    arguments: [1, 3])
  func oversize(parts: Int) async throws {
    try await AppPageRouteTests.withApp { server in
      let limit = WebRenderer.appMessageLimit
      let received = try await offPool {
        try Self.send(
          Self.message(size: limit + 1024, parts: parts), port: server.port, key: server.key)
      }
      #expect(Self.closeCode(received) == 1009, "the server sent \(received.prefix(64))")
      let page = try await AppPageRouteTests.get("/?key=\(server.key.hex)", port: server.port)
      #expect(page.status == 200)
    }
  }
}
