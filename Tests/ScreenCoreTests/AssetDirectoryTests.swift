import FocusEngine
import Foundation
import ScreenCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The asset directory's checks on real files in a temporary directory: the path rule, real
/// paths (symlinks out refused), regular files only, the size limit and the magic bytes.
@Suite("Asset directory")
struct AssetDirectoryTests {
  /// The repository's root (for the example images).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// A real PNG from the examples.
  static func png() throws -> [UInt8] {
    Array(try Data(contentsOf: root.appendingPathComponent("examples/assets/posters/orbit.png")))
  }

  /// A fresh directory holding `assets/` (the asset directory) and `outside/secret.png`.
  struct Fixture {
    let base: String
    let assets: AssetDirectory

    init() throws {
      base = NSTemporaryDirectory() + "tenfoot-assets-" + UUID().uuidString
      let manager = FileManager.default
      try manager.createDirectory(
        atPath: base + "/assets/posters", withIntermediateDirectories: true)
      try manager.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
      let png = try AssetDirectoryTests.png()
      try Data(png).write(to: URL(fileURLWithPath: base + "/assets/posters/a.png"))
      try Data(png).write(to: URL(fileURLWithPath: base + "/outside/secret.png"))
      assets = try AssetDirectory(path: base + "/assets")
    }

    func write(_ relative: String, _ bytes: [UInt8]) throws {
      try Data(bytes).write(to: URL(fileURLWithPath: base + "/assets/" + relative))
    }

    func remove() { try? FileManager.default.removeItem(atPath: base) }
  }

  @Test("a PNG inside the directory is read whole, typed by its signature")
  func readsPNG() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let image = try fixture.assets.read("posters/a.png").get()
    #expect(image.type == .png)
    #expect(image.bytes == (try Self.png()))
    #expect(image.dataURI.hasPrefix("data:image/png;base64,iVBORw0KGgo"))
    #expect(try fixture.assets.inspect("posters/a.png").get() == .png)
  }

  @Test(
    "paths that could leave the directory are refused before the file system is asked",
    arguments: [
      "../outside/secret.png", "posters/../../outside/secret.png", "/etc/passwd",
      "posters//a.png", "./posters/a.png", "posters/%2e%2e/a.png", "https://example.com/a.png",
    ])
  func traversal(path: String) throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    #expect(throws: AssetRefusal.self) { try fixture.assets.read(path).get() }
    let refusal = fixture.assets.read(path).failure
    #expect(refusal?.kind == .forbidden, "\(path): \(String(describing: refusal))")
    #expect(refusal?.kind.status == 403)
  }

  @Test("a symlink pointing outside the directory is refused; one inside it is followed")
  func symlinks() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try FileManager.default.createSymbolicLink(
      atPath: fixture.base + "/assets/escape.png", withDestinationPath: "../outside/secret.png")
    try FileManager.default.createSymbolicLink(
      atPath: fixture.base + "/assets/linked", withDestinationPath: fixture.base + "/outside")
    try FileManager.default.createSymbolicLink(
      atPath: fixture.base + "/assets/inside.png", withDestinationPath: "posters/a.png")
    let escape = fixture.assets.read("escape.png").failure
    #expect(escape?.kind == .forbidden, "\(String(describing: escape))")
    #expect(escape?.reason.contains("leaves the asset directory") == true)
    #expect(fixture.assets.read("linked/secret.png").failure?.kind == .forbidden)
    #expect(try fixture.assets.read("inside.png").get().type == .png)
  }

  @Test("a text file named x.png and an SVG are refused 415; a directory and a FIFO 403")
  func notImages() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try fixture.write("x.png", Array("just text, not a picture\n".utf8))
    try fixture.write(
      "logo.svg",
      Array(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8))
    try fixture.write("empty.png", [])
    for name in ["x.png", "logo.svg", "empty.png"] {
      let refusal = fixture.assets.read(name).failure
      #expect(refusal?.kind == .unsupportedType, "\(name): \(String(describing: refusal))")
      #expect(refusal?.kind.status == 415)
    }
    #expect(fixture.assets.read("posters").failure?.kind == .forbidden)
    #expect(mkfifo(fixture.base + "/assets/pipe.png", 0o600) == 0)
    // Opened without blocking: a FIFO with no writer does not hang the reader.
    #expect(fixture.assets.read("pipe.png").failure?.reason == "not a regular file")
    #expect(fixture.assets.read("missing.png").failure?.kind == .notFound)
    #expect(fixture.assets.read("missing/a.png").failure?.kind.status == 404)
  }

  @Test("a 9 MiB file is refused 413; one of exactly 8 MiB is served")
  func sizeLimit() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    let header = try Self.png().prefix(64)
    for (name, size) in [("big.png", 9 * 1024 * 1024), ("edge.png", AssetDirectory.maximumBytes)] {
      try fixture.write(name, Array(header))
      let handle = try FileHandle(
        forWritingTo: URL(fileURLWithPath: fixture.base + "/assets/" + name))
      try handle.truncate(atOffset: UInt64(size))
      try handle.close()
    }
    let big = fixture.assets.read("big.png").failure
    #expect(big?.kind == .tooLarge, "\(String(describing: big))")
    #expect(big?.kind.status == 413)
    #expect(fixture.assets.inspect("big.png").failure?.kind == .tooLarge)
    #expect(try fixture.assets.read("edge.png").get().bytes.count == AssetDirectory.maximumBytes)
  }

  @Test(
    "the signatures of PNG, JPEG, GIF and WebP, and nothing else",
    arguments: [
      (
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], AssetDirectory.ImageType?.some(.png)
      ),
      ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
      (Array("GIF89a...".utf8), .gif), (Array("GIF87a...".utf8), .gif),
      (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
      (Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8), nil),
      (Array("<svg xmlns=".utf8), nil), (Array("<?xml version".utf8), nil),
      ([0x89, 0x50, 0x4E, 0x47], nil), ([], nil),
    ] as [([UInt8], AssetDirectory.ImageType?)])
  func signatures(bytes: [UInt8], expected: AssetDirectory.ImageType?) {
    #expect(AssetDirectory.ImageType(sniffing: bytes) == expected)
  }

  @Test("the asset directory itself must exist and be a directory")
  func directory() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    #expect(throws: AssetRefusal.self) { try AssetDirectory(path: fixture.base + "/nowhere") }
    #expect(throws: AssetRefusal.self) {
      try AssetDirectory(path: fixture.base + "/assets/posters/a.png")
    }
    #expect(fixture.assets.realPath.hasPrefix("/"))
  }

  @Test("the start-up check names each item whose relative image is missing, outside or no image")
  func layoutCheck() throws {
    let fixture = try Fixture()
    defer { fixture.remove() }
    try fixture.write("notes.png", Array("text".utf8))
    try FileManager.default.createSymbolicLink(
      atPath: fixture.base + "/assets/escape.png", withDestinationPath: "../outside/secret.png")
    func item(_ id: String, _ image: String?) -> Item {
      Item(
        id: id, title: id, frame: Rect(x: 0, y: 0, width: 10, height: 10),
        content: ItemContent(image: image))
    }
    let layout = Layout(items: [
      item("good", "posters/a.png"), item("web", "https://example.com/a.png"), item("none", nil),
      item("missing", "posters/x.png"), item("escape", "escape.png"), item("text", "notes.png"),
    ])
    let problems = AssetDirectory.layoutProblems(layout, assets: fixture.assets)
    let directory = fixture.base + "/assets"
    #expect(
      problems == [
        "items[3].image: \"posters/x.png\" is not a file inside the asset directory \(directory) (no such file)",
        "items[4].image: \"escape.png\" is not a file inside the asset directory \(directory) (its real path leaves the asset directory)",
        "items[5].image: \"notes.png\" is not a file inside the asset directory \(directory) (not a PNG, JPEG, GIF or WebP image (by its first bytes))",
      ])
    let withoutAssets = AssetDirectory.layoutProblems(layout, assets: nil)
    #expect(withoutAssets.count == 4)
    #expect(withoutAssets.first?.hasPrefix("items[0].image: \"posters/a.png\"") == true)
    #expect(withoutAssets.allSatisfy { $0.contains("pass --assets DIR") })
    #expect(
      AssetDirectory.layoutProblems(Layout(items: [item("good", "posters/a.png")]), assets: nil)
        .count == 1)
    #expect(
      AssetDirectory.layoutProblems(
        Layout(items: [item("good", "posters/a.png")]), assets: fixture.assets
      ).isEmpty)
  }
}

extension Result {
  /// The error, or nil on success.
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
