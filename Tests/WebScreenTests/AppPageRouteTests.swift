import FocusEngine
import Foundation
import ScreenCore
import Testing

@testable import WebScreen

/// A developer's page (`--app DIR`) on the real page server over real sockets: the key by query
/// or cookie, the directory's checks, content types, the page's policy, `/tenfoot.js`; and the
/// page's messages parsed or refused with a reason.
@Suite("Web page server: your own page (--app)", .serialized)
struct AppPageRouteTests {
  /// A temporary app: `app/index.html`, `app/app.js`, `app/style.css`, `app/tool.exe`,
  /// `app/big.js` (9 MiB), `app/escape.js` (a symlink out) and `secret.js` outside.
  static func withApp(
    _ body: (WebServerHardeningTests.Server) async throws -> Void
  ) async throws {
    let base = NSTemporaryDirectory() + "tenfoot-app-route-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: base) }
    try FileManager.default.createDirectory(
      atPath: base + "/app", withIntermediateDirectories: true)
    for (path, text) in [
      ("app/index.html", "<!doctype html><script type=module src=app.js></script>"),
      ("app/app.js", "import '/tenfoot.js';"), ("app/style.css", "body{}"),
      ("app/tool.exe", "MZ"), ("secret.js", "secret"), ("app/big.js", ""),
    ] {
      try text.write(toFile: base + "/" + path, atomically: true, encoding: .utf8)
    }
    let big = try FileHandle(forWritingTo: URL(fileURLWithPath: base + "/app/big.js"))
    try big.truncate(atOffset: 9 * 1024 * 1024)
    try big.close()
    try FileManager.default.createSymbolicLink(
      atPath: base + "/app/escape.js", withDestinationPath: "../secret.js")
    let app = try AssetDirectory(path: base + "/app")
    try await WebServerHardeningTests.withServer(app: app) { server in try await body(server) }
  }

  static func get(_ path: String, port: Int, cookie: String? = nil) async throws -> RawResponse {
    let header = cookie.map { "Cookie: \($0)\r\n" } ?? ""
    return try await WebServerHardeningTests.exchange(
      "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(header)\r\n", port: port)
  }

  @Test(
    "the page answers with the key: the web screen's policy and an HttpOnly SameSite cookie; its files and tenfoot.js then need only the cookie"
  )
  func pageAndCookie() async throws {
    try await Self.withApp { server in
      let page = try await Self.get("/?key=\(server.key.hex)", port: server.port)
      #expect(page.status == 200, "\(page.body)")
      #expect(page.headers["content-type"] == "text/html; charset=utf-8")
      let policy = page.headers["content-security-policy"] ?? ""
      #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"))
      #expect(
        page.headers["set-cookie"]
          == "tenfoot-key=\(server.key.hex); Path=/; HttpOnly; SameSite=Strict")
      #expect(page.body.contains("app.js"))
      let cookie = "tenfoot-key=\(server.key.hex)"
      let script = try await Self.get("/app.js", port: server.port, cookie: cookie)
      #expect(script.status == 200 && script.body == "import '/tenfoot.js';")
      #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
      #expect(script.headers["x-content-type-options"] == "nosniff")
      let style = try await Self.get("/style.css", port: server.port, cookie: cookie)
      #expect(style.headers["content-type"] == "text/css; charset=utf-8")
      let module = try await Self.get("/tenfoot.js", port: server.port, cookie: cookie)
      #expect(module.status == 200 && module.body.contains("export const tenfoot"))
    }
  }

  @Test("without the key or cookie, or with a wrong one, every file is refused 403")
  func needsKey() async throws {
    try await Self.withApp { server in
      for (path, cookie) in [
        ("/", nil), ("/app.js", nil), ("/tenfoot.js", nil),
        ("/app.js", "tenfoot-key=ffeeddccbbaa99887766554433221100"),
        ("/?key=ffeeddccbbaa99887766554433221100", nil),
      ] as [(String, String?)] {
        let response = try await Self.get(path, port: server.port, cookie: cookie)
        #expect(response.status == 403, "\(path): \(response.status)")
        #expect(response.body.contains("missing or wrong key"), "\(response.body)")
      }
    }
  }

  @Test("refusals: traversal and symlinks 403, missing 404, too large 413, unknown types 415")
  func refusals() async throws {
    try await Self.withApp { server in
      let cookie = "tenfoot-key=\(server.key.hex)"
      for (path, status) in [
        ("/../secret.js", 403), ("/%2e%2e/secret.js", 403), ("/escape.js", 403),
        ("/missing.js", 404), ("/big.js", 413), ("/tool.exe", 415), ("/app", 415),
      ] {
        let response = try await Self.get(path, port: server.port, cookie: cookie)
        #expect(response.status == status, "\(path): \(response.status) \(response.body)")
        #expect(!response.body.isEmpty, "a reason is given")
      }
    }
  }

  @Test("the page's messages: layouts decoded and validated, reactions and focus, refusals named")
  func messages() throws {
    #expect(try AppPageMessage.parse(#"{"key":"right","phase":"down"}"#) == nil)
    let layout = #"{"canvas":{"width":800,"height":600},"items":[{"id":"a","frame":[0,0,10,10]}]}"#
    let parsed = try #require(
      try AppPageMessage.parse(#"{"tenfoot":"layout","layout":\#(layout)}"#))
    #expect(parsed.layout?.items.map(\.id) == ["a"] && parsed.seq == nil)
    let reaction = try #require(
      try AppPageMessage.parse(#"{"tenfoot":"reaction","seq":42,"layout":null,"focus":"a"}"#))
    #expect(reaction == AppPageMessage(seq: 42, layout: nil, focus: "a"))
    let refusals: [(String, String)] = [
      (#"{"tenfoot":"layout""#, "not a JSON object"),
      (#"{"tenfoot":"nonsense"}"#, "unknown tenfoot message"),
      (#"{"tenfoot":"reaction","layout":null}"#, "needs \"seq\""),
      (#"{"tenfoot":"focus","id":"bad id"}"#, "item id"),
      (
        #"{"tenfoot":"layout","layout":{"items":[{"id":"a b","frame":[0,0,1,1]}]}}"#,
        "items[0].id"
      ),
      (#"{"tenfoot":"layout","layout":{"items":[{"id":"a","frame":[0,0]}]}}"#, "items[0].frame"),
    ]
    for (text, reason) in refusals {
      #expect(throws: AppPageMessage.Problem.self, "\(text)") { try AppPageMessage.parse(text) }
      do {
        _ = try AppPageMessage.parse(text)
      } catch {
        #expect(error.description.contains(reason), "\(text): \(error.description)")
      }
    }
  }
}
