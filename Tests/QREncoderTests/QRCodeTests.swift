import Foundation
import TestSupport
import Testing

@testable import QREncoder

/// The QR encoder: its codes decode with Debian's `zbarimg` (zbar-tools), for payloads that need
/// versions 1 to 40, and the pieces the standard fixes (Reed–Solomon, capacities, format bits)
/// match the standard's own numbers.
@Suite("QR code encoder")
struct QRCodeTests {
  static let required = ProcessInfo.processInfo.environment["TENFOOT_REQUIRE_ZBAR"] == "1"

  static var zbarimg: String? { QRCodeReader.zbarimg }

  static func decode(_ image: String) throws -> String? { try QRCodeReader.decode(image) }

  /// Writes `contents` to a fresh temporary file named `name`.
  static func temporary(_ name: String, _ contents: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("tenfoot-qr-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A payload of `count` bytes: a URL-like prefix, then a repeating mix of characters.
  static func payload(_ count: Int) -> String {
    let prefix = "http://192.168.1.20:8080/phone?token="
    let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_.~")
    let body = (0..<max(0, count - prefix.count)).map {
      alphabet[($0 * 7 + $0 / 5) % alphabet.count]
    }
    return String((prefix + String(body)).prefix(count))
  }

  @Test(
    "codes for 1 to 2331 bytes decode with zbarimg to the same text",
    .enabled(if: zbarimg != nil || required),
    arguments: [1, 14, 15, 26, 42, 62, 84, 106, 122, 152, 180, 213, 214, 331, 504, 858, 1370, 2331])
  func decodesWithZbar(length: Int) throws {
    let text = Self.payload(length)
    let code = try QRCode(text)
    #expect(code.size == code.version * 4 + 17)
    let image = try Self.temporary("code.pbm", code.pbm(scale: 3))
    let decoded = try Self.decode(image)
    #expect(decoded == text, "version \(code.version), mask \(code.mask)")
  }

  // Byte mode without an ECI header means ISO 8859-1 to readers (zbar guesses the charset of
  // other bytes), so only ASCII is checked: the phone remote's URLs are ASCII.
  @Test(
    "a URL with every URL punctuation decodes byte for byte",
    .enabled(if: zbarimg != nil || required))
  func punctuation() throws {
    let text = "http://tv.local:8080/phone?token=ab&x=1;y=%20~!*'()[]@$,+#frag"
    let image = try Self.temporary("ascii.pbm", try QRCode(text).pbm())
    #expect(try Self.decode(image) == text)
  }

  @Test(
    "the terminal's half blocks, read back as modules, decode with zbarimg",
    .enabled(if: zbarimg != nil || required))
  func halfBlocksDecode() throws {
    let text = Self.payload(80)
    let code = try QRCode(text)
    let lines = code.halfBlockLines()
    let width = code.size + 2 * QRCode.quietZone
    #expect(lines.count == (width + 1) / 2)
    #expect(lines.allSatisfy { $0.count == width })
    // Back to modules, as a person sees them: each character is two modules stacked.
    var rows: [[Bool]] = []
    for line in lines {
      rows.append(line.map { $0 == "█" || $0 == "▀" })
      rows.append(line.map { $0 == "█" || $0 == "▄" })
    }
    let scale = 4
    var pbm = "P1\n\(width * scale) \(rows.count * scale)\n"
    for row in rows {
      let pixels = row.flatMap { Array(repeating: $0 ? "1" : "0", count: scale) }.joined(
        separator: " ")
      for _ in 0..<scale { pbm += pixels + "\n" }
    }
    #expect(try Self.decode(try Self.temporary("blocks.pbm", pbm)) == text)
  }

  @Test("the smallest version that holds the bytes, by the standard's capacities at level M")
  func capacities() throws {
    // ISO/IEC 18004 table 7, byte mode, level M.
    let table = [
      1: 14, 2: 26, 3: 42, 4: 62, 5: 84, 6: 106, 7: 122, 8: 152, 9: 180, 10: 213, 40: 2331,
    ]
    for (version, bytes) in table {
      #expect(QRCode.capacity(version: version) == bytes, "version \(version)")
      #expect(try QRCode(Self.payload(bytes)).version == version)
      if version < 40 { #expect(try QRCode(Self.payload(bytes + 1)).version == version + 1) }
    }
    #expect(throws: QRCode.EncodingError.tooLong(bytes: 2332, maximum: 2331)) {
      try QRCode(Self.payload(2332))
    }
  }

  @Test("the standard's worked example: 01234567 at version 1-M has the annex's codewords")
  func annexExample() throws {
    // ISO/IEC 18004 annex I: "01234567" in numeric mode gives these 16 data codewords and the
    // 10 error correction codewords after them; our Reed–Solomon must reproduce the latter.
    let data: [UInt8] = [
      0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC,
      0x11,
    ]
    let code = try QRCode(bytes: [0])  // Any version 1 symbol: the layout is the same.
    #expect(code.version == 1)
    #expect(
      QRCode.errorCorrection(data, version: 1) == [
        0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55,
      ])
  }

  @Test(
    "finder patterns in three corners, timing between them, the dark module by the lower finder")
  func functionPatterns() throws {
    let code = try QRCode(Self.payload(100))
    let size = code.size
    for (x0, y0) in [(0, 0), (size - 7, 0), (0, size - 7)] {
      for dy in 0..<7 {
        for dx in 0..<7 {
          let ring = max(abs(dx - 3), abs(dy - 3))
          #expect(code[x0 + dx, y0 + dy] == (ring != 2), "finder at \(x0),\(y0)")
        }
      }
    }
    for i in 8..<(size - 8) {
      #expect(code[i, 6] == (i % 2 == 0))
      #expect(code[6, i] == (i % 2 == 0))
    }
    #expect(code[8, size - 8])
    #expect(QRCode.alignmentPositions(version: 7) == [6, 22, 38])
    #expect(QRCode.alignmentPositions(version: 32) == [6, 34, 60, 86, 112, 138])
  }

  @Test("the SVG image has the quiet zone and one path of dark modules")
  func svgImage() throws {
    let code = try QRCode("hello")
    let svg = code.svg(pixels: 200)
    let width = code.size + 8
    #expect(
      svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(width)\""))
    #expect(svg.contains("width=\"200\""))
    #expect(svg.contains("<path fill=\"#000\" d=\"M4 4h7v1h-7z"), "the top-left finder's first row")
  }
}
