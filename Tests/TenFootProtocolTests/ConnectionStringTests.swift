import Testing

@testable import TenFootProtocol

@Suite("Connection strings")
struct ConnectionStringTests {
  let key = (0..<32).map { UInt8($0 * 7 + 3) }

  @Test("a line round-trips and names the endpoints, state and pairing on the next ports")
  func roundTrip() throws {
    let connection = ConnectionString(brokers: [("192.168.1.10", 7700)], key: key)
    let line = connection.description
    #expect(line.hasPrefix("tenfoot://") && line.hasSuffix("@192.168.1.10:7700"))
    #expect(try ConnectionString(parsing: line) == connection)
    let endpoints = connection.endpoints
    #expect(endpoints.control == "tcp://192.168.1.10:7700")
    #expect(endpoints.state == "tcp://192.168.1.10:7701")
    #expect(endpoints.pairing == nil, "derived from the control port (+2) by Endpoints")
  }

  @Test("every character is one a POSIX shell takes unquoted")
  func shellSafe() {
    let line = ConnectionString(
      brokers: [("tv.local", 7700)], key: [UInt8](repeating: 0xFF, count: 32)
    )
    .description
    var ports = ConnectionString(
      brokers: [("a", 1), ("b", 2)], key: [UInt8](repeating: 0xFB, count: 32))
    ports.statePort = 3
    ports.pairingPort = 4
    // No glob, expansion, history or control character of bash, zsh or fish.
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/,@")
    for text in [line, ports.description] {
      #expect(text.allSatisfy(safe.contains), "\(text)")
    }
  }

  @Test("a zone's brokers and explicit ports")
  func zone() throws {
    var connection = ConnectionString(brokers: [("a", 7700), ("b", 7800)], key: key)
    connection.statePort = 9001
    connection.pairingPort = 9002
    let parsed = try ConnectionString(parsing: connection.description)
    #expect(parsed.endpoints.control == "tcp://a:7700,tcp://b:7800")
    #expect(parsed.endpoints.state == "tcp://a:9001,tcp://b:9001")
    #expect(parsed.endpoints.pairing == "tcp://a:9002")
  }

  @Test(
    "bad lines say what is wrong",
    arguments: [
      ("http://x:1", ConnectionString.ParseError.notTenFoot),
      ("tenfoot://x:7700", .badKey),
      ("tenfoot://abc@x:7700", .badKey),
      ("tenfoot://AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA@x", .badBroker("x")),
      ("tenfoot://AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA@x:0", .badBroker("x:0")),
      ("tenfoot://AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA@x:1/2", .badPorts("2")),
    ])
  func errors(line: String, expected: ConnectionString.ParseError) {
    #expect(throws: expected) { try ConnectionString(parsing: line) }
  }

  @Test("base64url: the RFC 4648 alphabet without padding, refusing the standard one")
  func base64url() {
    #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    #expect(Base64URL.decode("+/8=") == nil)
    #expect(Base64URL.decode(Base64URL.encode(key)) == key)
    #expect(Base64URL.encode(key).count == 43)
  }
}
