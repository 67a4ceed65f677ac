import Testing

@testable import TerminalUI

@Suite("Key decoding")
struct KeyDecoderTests {
  static func decode(_ bytes: [UInt8]) -> [KeyPress] {
    var decoder = KeyDecoder()
    return decoder.feed(bytes)
  }

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  struct Case: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let keys: [KeyPress]
    var testDescription: String { "\(bytes) → \(keys)" }
  }

  @Test(arguments: [
    Case(bytes: [0x1B, 0x5B, 0x41], keys: [.up]),
    Case(bytes: [0x1B, 0x5B, 0x42], keys: [.down]),
    Case(bytes: [0x1B, 0x5B, 0x43], keys: [.right]),
    Case(bytes: [0x1B, 0x5B, 0x44], keys: [.left]),
    Case(bytes: [0x1B, 0x4F, 0x41], keys: [.up]),
    Case(bytes: [0x1B, 0x4F, 0x42], keys: [.down]),
    Case(bytes: [0x1B, 0x4F, 0x43], keys: [.right]),
    Case(bytes: [0x1B, 0x4F, 0x44], keys: [.left]),
    Case(bytes: Array("\u{1B}[1;5A".utf8), keys: [.up]),
    Case(bytes: [0x0D], keys: [.enter]),
    Case(bytes: [0x0A], keys: [.enter]),
    Case(bytes: [0x09], keys: [.tab]),
    Case(bytes: [0x1B, 0x5B, 0x5A], keys: [.shiftTab]),
    Case(bytes: [0x7F], keys: [.backspace]),
    Case(bytes: [0x08], keys: [.backspace]),
    Case(bytes: [0x20], keys: [.space]),
    Case(bytes: [0x03], keys: [.ctrlC]),
    Case(bytes: Array("\u{1B}[5~".utf8), keys: [.pageUp]),
    Case(bytes: Array("\u{1B}[6~".utf8), keys: [.pageDown]),
    Case(bytes: Array("\u{1B}[H".utf8), keys: [.home]),
    Case(bytes: Array("\u{1B}[1~".utf8), keys: [.home]),
    Case(bytes: Array("\u{1B}OF".utf8), keys: [.end]),
    Case(bytes: Array("\u{1B}[3~".utf8), keys: [.delete]),
    Case(bytes: Array("qH~".utf8), keys: [.character("q"), .character("H"), .character("~")]),
    Case(bytes: Array("é♥😀".utf8), keys: [.character("é"), .character("♥"), .character("😀")]),
    Case(bytes: [0x1B, 0x78], keys: [.escape, .character("x")]),
    Case(bytes: [0x1B, 0x1B, 0x5B, 0x41], keys: [.escape, .up]),
  ])
  func decodesEveryKey(_ example: Case) {
    #expect(Self.decode(example.bytes) == example.keys)
  }

  @Test("sequences split across feeds are completed by the next feed")
  func splitFeeds() {
    let stream = Self.bytes("a\u{1B}[Ab\u{1B}OB\u{1B}[1;2C\u{1B}[Zé😀\r")
    let whole = Self.decode(stream)
    #expect(
      whole == [
        .character("a"), .up, .character("b"), .down, .right, .shiftTab, .character("é"),
        .character("😀"), .enter,
      ])
    // Every way of cutting the stream in two, and one byte at a time, gives the same keys.
    for cut in 0...stream.count {
      var decoder = KeyDecoder()
      let keys = decoder.feed(stream[..<cut]) + decoder.feed(stream[cut...])
      #expect(keys == whole, "cut at \(cut)")
      #expect(!decoder.hasPendingEscape)
    }
    var decoder = KeyDecoder()
    var keys: [KeyPress] = []
    for byte in stream { keys += decoder.feed([byte]) }
    #expect(keys == whole)
  }

  @Test("a lone Escape waits for flush, then comes out as Escape")
  func loneEscape() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]).isEmpty)
    #expect(decoder.hasPendingEscape)
    #expect(decoder.flush() == [.escape])
    #expect(!decoder.hasPendingEscape)
    #expect(decoder.flush().isEmpty)
    // A pending ESC followed by an ordinary byte is an Escape, no flush needed.
    #expect(decoder.feed([0x1B]).isEmpty)
    #expect(decoder.feed(Self.bytes("q")) == [.escape, .character("q")])
    // An ESC [ that never completes: Escape, then the rest as typed.
    #expect(decoder.feed(Self.bytes("\u{1B}[")).isEmpty)
    #expect(decoder.hasPendingEscape)
    #expect(decoder.flush() == [.escape, .character("[")])
    // Two lone Escapes.
    #expect(decoder.feed([0x1B, 0x1B]) == [.escape])
    #expect(decoder.flush() == [.escape])
  }

  @Test("unknown sequences and stray bytes are dropped without losing what follows")
  func unknownIgnored() {
    #expect(Self.decode(Self.bytes("\u{1B}[99~x")) == [.character("x")])
    #expect(Self.decode(Self.bytes("\u{1B}[?1;2cy")) == [.character("y")])
    #expect(Self.decode(Self.bytes("\u{1B}OZz")) == [.character("z")])
    #expect(Self.decode([0x00, 0x01, 0x1F, 0x61]) == [.character("a")])
    // Malformed UTF-8: a stray continuation byte, a lead byte cut short, an invalid lead.
    #expect(
      Self.decode([0x80, 0x61, 0xC3, 0x62, 0xFF, 0x63]) == [
        .character("a"), .character("b"), .character("c"),
      ])
    // An over-long CSI is dropped once it passes the limit.
    let long = Self.bytes("\u{1B}[" + String(repeating: "1", count: 40) + "Aw")
    #expect(Self.decode(long) == [.character("w")])
    var decoder = KeyDecoder()
    var keys: [KeyPress] = []
    for byte in long { keys += decoder.feed([byte]) }
    #expect(keys == [.character("w")])
    // A CSI interrupted by a control byte gives the control byte.
    #expect(Self.decode(Self.bytes("\u{1B}[1\r")) == [.enter])
  }

  @Test("an incomplete UTF-8 character stays pending across feeds and flushes")
  func pendingUTF8() {
    var decoder = KeyDecoder()
    let heart = Self.bytes("♥")
    #expect(decoder.feed(heart[..<1]).isEmpty)
    #expect(!decoder.hasPendingEscape)
    #expect(decoder.flush().isEmpty)
    #expect(decoder.feed(heart[1...]) == [.character("♥")])
  }
}
