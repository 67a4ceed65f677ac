import InputDevices
import Testing

@Suite("HDMI-CEC remote control messages")
struct CECTranslatorTests {
  /// A TV (logical address 0) sending to a playback device (4): right pressed, repeated twice
  /// while held (about every 450 ms), released; then select; a vendor command in between.
  static let recorded: [(UInt64, String)] = [
    (1_000, "04:44:04"), (1_450, "04:44:04"), (1_900, "04:44:04"), (2_010, "04:45"),
    (2_500, "04:89:00:10:02"), (3_000, "04:44:00"), (3_090, "04:45"), (3_500, "04"),
  ]

  @Test("a recorded sequence: press, repeats as held ticks, release, select")
  func recordedSequence() throws {
    var translator = CECTranslator()
    var outputs: [DeviceOutput] = []
    for (ms, text) in Self.recorded {
      outputs += try translator.handle(CECTranslator.bytes(text), at: ms * 1_000_000)
    }
    #expect(
      outputs == [
        .key(.right, .down, at: 1_000_000_000), .key(.right, .held, at: 1_450_000_000),
        .key(.right, .held, at: 1_900_000_000), .key(.right, .up, at: 2_010_000_000),
        .key(.select, .down, at: 3_000_000_000), .key(.select, .up, at: 3_090_000_000),
      ])
  }

  @Test("a press of another key releases the first; an unknown code is reported once")
  func switchingAndUnknown() throws {
    var translator = CECTranslator()
    _ = try translator.handle([0x04, 0x44, 0x01], at: 1)
    #expect(
      try translator.handle([0x04, 0x44, 0x02], at: 2) == [
        .key(.up, .up, at: 2), .key(.down, .down, at: 2),
      ])
    #expect(try translator.handle([0x04, 0x44, 0x7f], at: 3) == [.unmappedKey(0x7f)])
    #expect(try translator.handle([0x04, 0x44, 0x7f], at: 4) == [])
    #expect(try translator.handle([0x04, 0x45], at: 5) == [.key(.down, .up, at: 5)])
  }

  @Test(
    "malformed and oversized messages are refused, and change nothing",
    arguments: [
      ([UInt8](), "an empty message (no header byte)"),
      ([UInt8](repeating: 0x44, count: 17), "a message of 17 bytes (CEC messages are at most 16)"),
      ([0x04, 0x44], "User Control Pressed without its UI command code"),
      ([0x04, 0x45, 0x00], "User Control Released with 1 operand bytes (it has none)"),
    ] as [([UInt8], String)])
  func malformed(message: [UInt8], expected: String) throws {
    var translator = CECTranslator()
    _ = try translator.handle([0x04, 0x44, 0x03], at: 1)
    #expect(throws: CECError(expected)) { try translator.handle(message, at: 2) }
    #expect(try translator.handle([0x04, 0x45], at: 3) == [.key(.left, .up, at: 3)])
  }

  @Test("cec-ctl notation: bad hex is refused")
  func notation() {
    #expect(throws: CECError.self) { try CECTranslator.bytes("04:4g") }
    #expect(throws: CECError.self) { try CECTranslator.bytes("0444") }
  }

  @Test("ticks while a key is down; a lost Released releases after the 550 ms safety timeout")
  func safetyTimeout() throws {
    var cec = CECTranslator()
    let ms: UInt64 = 1_000_000
    #expect(try cec.handle([0x40, 0x44, 0x03], at: 0) == [.key(.left, .down, at: 0)])
    #expect(cec.releaseDeadline == 550 * ms)
    #expect(cec.tick(at: 50 * ms) == [.key(.left, .held, at: 50 * ms)])
    // A repeat of Pressed pushes the deadline on.
    #expect(try cec.handle([0x40, 0x44, 0x03], at: 500 * ms) == [.key(.left, .held, at: 500 * ms)])
    #expect(cec.tick(at: 1_000 * ms) == [.key(.left, .held, at: 1_000 * ms)])
    #expect(cec.tick(at: 1_100 * ms) == [.key(.left, .up, at: 1_050 * ms)])
    #expect(cec.keyDown == nil && cec.tick(at: 1_200 * ms).isEmpty)
    // A Released after that changes nothing.
    #expect(try cec.handle([0x40, 0x45], at: 1_300 * ms).isEmpty)
  }

  @Test("a malformed message between a press and its release leaves the key down")
  func malformedMidPress() throws {
    var cec = CECTranslator()
    _ = try cec.handle([0x40, 0x44, 0x01], at: 0)
    #expect(throws: CECError.self) { try cec.handle([0x40, 0x45, 0x00], at: 10) }
    #expect(throws: CECError.self) { try cec.handle([UInt8](repeating: 0, count: 40), at: 20) }
    #expect(cec.keyDown == .up)
    #expect(try cec.handle([0x40, 0x45], at: 30) == [.key(.up, .up, at: 30)])
  }
}
