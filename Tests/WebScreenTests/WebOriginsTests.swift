import Testing

@testable import WebScreen

/// The WebSocket origin check and the URLs' secrets kept out of logs: pure rules.
@Suite("Web origins and secret URLs")
struct WebOriginsTests {
  @Test(
    "same origin as Host, listed origins, no Origin and a ws: one are let in; nothing else is",
    arguments: [
      ("http://192.168.1.20:8080", "192.168.1.20:8080", true),
      ("https://tv.local", "tv.local:443", true),
      ("http://tv.local", "tv.local", true),
      ("http://tv.local:80", "tv.local", true),
      ("http://kiosk.example", "192.168.1.20:8080", true),
      ("http://kiosk.example:81", "192.168.1.20:8080", false),
      ("http://evil.example", "192.168.1.20:8080", false),
      ("http://192.168.1.20:8081", "192.168.1.20:8080", false),
      ("null", "192.168.1.20:8080", false),
      ("ws://192.168.1.20", "192.168.1.20:8080", true),
      ("file://", "192.168.1.20:8080", false),
      ("http://192.168.1.20:8080/page", "192.168.1.20:8080", false),
    ])
  func origin(origin: String, host: String, allowed: Bool) throws {
    let origins = try WebOrigins.allowing(["http://kiosk.example/"]).get()
    #expect((origins.refusal(origin: origin, host: host) == nil) == allowed)
    #expect(origins.refusal(origin: nil, host: host) == nil, "no Origin: not a browser page")
  }

  @Test("an allowed origin must be http(s)://HOST[:PORT]")
  func invalid() {
    for bad in ["kiosk.example", "ftp://kiosk.example", "http://", "http://a/b", "http://a?b"] {
      #expect(throws: WebOrigins.Invalid.self, "\(bad)") { try WebOrigins.allowing([bad]).get() }
    }
    #expect(WebOrigins.printable("http://e\r\nX: y") == "http://eX: y")
  }

  @Test("/ws needs an allowed origin and the key; /phone/ws an allowed origin (its token later)")
  func admission() throws {
    let key = try #require(WebAccessKey(hex: "00112233445566778899aabbccddeeff"))
    let admission = WebSocketAdmission(accessKey: key, origins: .sameOrigin)
    let host = "192.168.1.20:8080"
    let own = "http://192.168.1.20:8080"
    #expect(admission.refusal(uri: "/ws?key=\(key.hex)", host: host, origin: own) == nil)
    #expect(admission.refusal(uri: "/ws?key=\(key.hex)", host: host, origin: nil) == nil)
    #expect(
      admission.refusal(uri: "/ws?key=\(key.hex)", host: host, origin: "http://evil.example")?
        .contains("origin http://evil.example is not allowed") == true)
    #expect(admission.refusal(uri: "/ws?key=0", host: host, origin: own)?.contains("key") == true)
    #expect(admission.refusal(uri: "/ws", host: host, origin: own)?.contains("key") == true)
    #expect(admission.refusal(uri: "/phone/ws?token=t", host: host, origin: own) == nil)
    #expect(
      admission.refusal(uri: "/phone/ws?token=t", host: host, origin: "http://evil.example")
        != nil)
    #expect(admission.refusal(uri: "/other", host: host, origin: "http://evil.example") == nil)
  }

  @Test("the key, a phone's token and its session are cut from URLs meant for logs")
  func redacted() {
    #expect(SecretURL.redacted("http://h:1/?key=abc") == "http://h:1/?key=…")
    #expect(
      SecretURL.redacted("http://h:1/phone?token=t&x=1&session=s")
        == "http://h:1/phone?token=…&x=1&session=…")
    #expect(SecretURL.redacted("http://h:1/") == "http://h:1/")
  }
}
