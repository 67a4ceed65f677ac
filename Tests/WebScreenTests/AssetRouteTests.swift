import Foundation
import ScreenCore
import Testing

@testable import WebScreen

/// `GET /assets/<path>` on the real page server over real sockets: the key like the page's
/// stream, the asset directory's checks as 403/404/413/415, the image's headers.
@Suite("Web page server: the app's assets", .serialized)
struct AssetRouteTests {
  /// A temporary asset directory: `posters/a.png` (a real PNG), `notes.png` (text),
  /// `logo.svg`, `escape.png` (a symlink out), `big.png` (9 MiB), and `secret.png` outside.
  struct Fixture {
    let base: String
    let assets: AssetDirectory
    let png: [UInt8]

    init() throws {
      let base = NSTemporaryDirectory() + "tenfoot-asset-route-" + UUID().uuidString
      self.base = base
      let manager = FileManager.default
      try manager.createDirectory(
        atPath: base + "/assets/posters", withIntermediateDirectories: true)
      let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
      let png = Array(
        try Data(contentsOf: root.appendingPathComponent("examples/assets/posters/orbit.png")))
      self.png = png
      func write(_ path: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: base + "/" + path))
      }
      try write("assets/posters/a.png", png)
      try write("secret.png", png)
      try write("assets/notes.png", Array("plain text\n".utf8))
      try write("assets/logo.svg", Array(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8))
      try write("assets/big.png", Array(png.prefix(16)))
      let big = try FileHandle(forWritingTo: URL(fileURLWithPath: base + "/assets/big.png"))
      try big.truncate(atOffset: 9 * 1024 * 1024)
      try big.close()
      try manager.createSymbolicLink(
        atPath: base + "/assets/escape.png", withDestinationPath: "../secret.png")
      assets = try AssetDirectory(path: base + "/assets")
    }

    func remove() { try? FileManager.default.removeItem(atPath: base) }
  }

  /// Runs `body` against a server serving the fixture's assets.
  static func withAssets(
    _ body: (WebServerHardeningTests.Server, Fixture) async throws -> Void
  ) async throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try await WebServerHardeningTests.withServer(assets: fixture.assets) { server in
      try await body(server, fixture)
    }
  }

  @Test("a PNG is served with its type, nosniff and a private cache; the bytes are the file's")
  func servesPNG() async throws {
    try await Self.withAssets { server, fixture in
      let response = try await WebServerHardeningTests.get(
        "/assets/posters/a.png?key=\(server.key.hex)", port: server.port)
      #expect(response.status == 200, "\(response.body)")
      #expect(response.headers["content-type"] == "image/png")
      #expect(response.headers["x-content-type-options"] == "nosniff")
      #expect(response.headers["cache-control"] == "private, max-age=300")
      #expect(response.headers["content-length"] == "\(fixture.png.count)")
      #expect(response.bodyBytes == fixture.png)
    }
  }

  @Test("without the key, or with a wrong one, an asset is refused 403 like the page's stream")
  func needsKey() async throws {
    try await Self.withAssets { server, _ in
      for path in [
        "/assets/posters/a.png", "/assets/posters/a.png?key=ffeeddccbbaa99887766554433221100",
        "/assets/missing.png",
      ] {
        let response = try await WebServerHardeningTests.get(path, port: server.port)
        #expect(response.status == 403, "\(path): \(response.status) \(response.body)")
        #expect(response.body.contains("missing or wrong key"), "\(response.body)")
        #expect(response.bodyBytes != [UInt8](), "a reason is given")
      }
    }
  }

  @Test(
    "refusals: traversal and symlinks 403, missing 404, too large 413, text and SVG 415; each logged"
  )
  func refusals() async throws {
    try await Self.withAssets { server, _ in
      let cases: [(String, Int)] = [
        ("../secret.png", 403), ("posters/../../secret.png", 403), ("%2e%2e/secret.png", 403),
        ("escape.png", 403), ("posters", 403), ("missing.png", 404), ("posters/none.png", 404),
        ("big.png", 413), ("notes.png", 415), ("logo.svg", 415),
      ]
      for (path, status) in cases {
        let response = try await WebServerHardeningTests.get(
          "/assets/\(path)?key=\(server.key.hex)", port: server.port)
        #expect(response.status == status, "\(path): \(response.status) \(response.body)")
        #expect(response.headers["content-type"] == "text/plain; charset=utf-8", "\(path)")
        #expect(!response.body.isEmpty, "\(path): a short reason")
        #expect(response.bodyBytes.count < 200, "\(path)")
      }
      // Logged, throttled: the first refusal makes a line, the others in the same second are
      // counted (a loaded machine may take more than a second over them: a second line).
      let lines = server.logs.all.filter { $0.message == "asset refused" }
      #expect(!lines.isEmpty && lines.count < cases.count, "\(lines.map(\.metadata))")
      #expect(lines.first?.metadata.contains("status=403") == true)
    }
  }

  @Test("a server without an asset directory answers 404, key or not a 403 first")
  func noAssets() async throws {
    try await WebServerHardeningTests.withServer { server in
      let keyed = try await WebServerHardeningTests.get(
        "/assets/posters/a.png?key=\(server.key.hex)", port: server.port)
      #expect(keyed.status == 404, "\(keyed.body)")
      #expect(keyed.body.contains("--assets"))
      let stranger = try await WebServerHardeningTests.get(
        "/assets/posters/a.png", port: server.port)
      #expect(stranger.status == 403)
    }
  }

  @Test("the page's policy lets images load from itself and https:, nothing else widened")
  func pagePolicy() {
    let policy = PageSecurity.policy(nonce: "n", host: "127.0.0.1:8080")
    #expect(policy.contains("img-src 'self' data: https:;"))
    #expect(policy.contains("default-src 'self'"))
    #expect(policy.contains("script-src 'self' 'nonce-n';"))
    #expect(!policy.contains("http:"))
  }
}
