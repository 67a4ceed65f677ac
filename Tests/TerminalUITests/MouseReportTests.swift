import Testing

@testable import TerminalUI

/// xterm SGR mouse reports (mode 1006) decoded among keys, in any split.
@Suite("Mouse reports")
struct MouseReportTests {
  @Test("motion, press, release and the wheel; keys around them still decode")
  func decoded() {
    var decoder = KeyDecoder()
    let keys = decoder.feed(
      Array(
        "\u{1B}[<35;10;5M\u{1B}[<0;12;7M\u{1B}[<0;12;7m\u{1B}[<32;13;7Mx\u{1B}[<65;1;1M\u{1B}[A"
          .utf8))
    #expect(
      keys == [
        .mouse(MouseReport(.motion, button: .none, column: 10, row: 5)),
        .mouse(MouseReport(.press, button: .left, column: 12, row: 7)),
        .mouse(MouseReport(.release, button: .left, column: 12, row: 7)),
        .mouse(MouseReport(.motion, button: .left, column: 13, row: 7)),
        .character("x"),
        .mouse(MouseReport(.wheelDown, button: .none, column: 1, row: 1)),
        .up,
      ])
  }

  @Test("a report split across reads is completed by the next feed")
  func split() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Array("\u{1B}[<2;1".utf8)).isEmpty)
    #expect(
      decoder.feed(Array("40;300M".utf8)) == [
        .mouse(MouseReport(.press, button: .right, column: 140, row: 300))
      ])
  }

  @Test("malformed reports are dropped without affecting what follows")
  func malformed() {
    var decoder = KeyDecoder()
    let keys = decoder.feed(
      Array("\u{1B}[<35;10M\u{1B}[<0;0;1M\u{1B}[<66;3;3M\u{1B}[<0;1;1Xq".utf8))
    #expect(keys == [.character("q")])
  }
}
