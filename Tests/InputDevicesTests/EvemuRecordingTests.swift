import Foundation
import InputDevices
import Testing

/// Reads a recording from the test fixtures.
func fixture(_ name: String) throws -> String {
  let url = try #require(
    Bundle.module.url(forResource: name, withExtension: "evemu", subdirectory: "Fixtures"))
  return try String(contentsOf: url, encoding: .utf8)
}

@Suite("evemu recordings")
struct EvemuRecordingTests {
  @Test("the keyboard's descriptor lines give its identity, keys, LEDs and autorepeat")
  func keyboardDescriptor() throws {
    let recording = try EvemuRecording.parse(fixture("usb-keyboard"))
    let device = recording.device
    #expect(device.name == "Keychron Keychron C1")
    #expect(
      [device.bus, device.vendor, device.product, device.version] == [3, 0x5ac, 0x24f, 0x111])
    #expect(device.supports(InputEventCode.evKey, InputEventCode.keyEnter))
    #expect(device.supports(InputEventCode.evKey, InputEventCode.keyRight))
    #expect(device.supports(InputEventCode.evKey, 464))  // KEY_FN, in the 9th B: 01 line
    #expect(!device.supports(InputEventCode.evKey, InputEventCode.btnSouth))
    #expect(device.codes[InputEventCode.evRep] == [0, 1])
    #expect(device.codes[InputEventCode.evLed] == [0, 1, 2, 3, 4])
    #expect(device.kind == .keyboard)
  }

  @Test("the media remote is a remote, the gamepad a gamepad with its axis ranges")
  func kinds() throws {
    let media = try EvemuRecording.parse(fixture("media-remote")).device
    #expect(media.kind == .remote)
    #expect(media.supports(InputEventCode.evKey, InputEventCode.keySelect))
    #expect(media.axes[0x20] == AxisRange(minimum: 0, maximum: 828))
    let pad = try EvemuRecording.parse(fixture("gamepad")).device
    #expect(pad.kind == .gamepad)
    #expect(
      pad.axes[InputEventCode.absX]
        == AxisRange(minimum: -32768, maximum: 32767, fuzz: 16, flat: 128))
    #expect(pad.axes[InputEventCode.absHat0X] == AxisRange(minimum: -1, maximum: 1))
  }

  @Test("event lines become timestamped events in nanoseconds")
  func events() throws {
    let recording = try EvemuRecording.parse(fixture("usb-keyboard"))
    #expect(recording.events.count == 84)
    #expect(recording.events[0] == InputEvent(time: 1_000_000, type: 4, code: 4, value: 458831))
    #expect(recording.events[1] == InputEvent(time: 1_000_000, type: 1, code: 106, value: 1))
    #expect(recording.events.last == InputEvent(time: 3_103_340_000, type: 0, code: 0, value: 0))
  }

  @Test("short fractions are scaled; a CRLF file parses")
  func fractionsAndCRLF() throws {
    let text = "# EVEMU 1.3\r\nN: Pad\r\nE: 1.5 0001 0130 1\r\nE: 2.000250 0001 0130 0\r\n"
    let recording = try EvemuRecording.parse(text)
    #expect(recording.events.map(\.time) == [1_500_000_000, 2_000_250_000])
  }

  @Test(
    "malformed files are refused with the line named",
    arguments: [
      ("N: x\nE: 0.1 0001 0130\n", "line 2: E: takes a time, a type, a code and a value"),
      ("N: x\nE: 0.1 0001 zz 1\n", "line 2: E: \"zz\" is not an event code (0 to 2ff)"),
      ("N: x\nE: 0.1 0020 0000 1\n", "line 2: E: \"0020\" is not an event type (00 to 1f)"),
      ("N: x\nE: 0.1 0001 0001 99999999999\n", "line 2: E: \"99999999999\" is not a 32-bit value"),
      ("N: x\nE: 1.x 0001 0001 1\n", "line 2: E: \"1.x\" is not a time like 3.640121"),
      ("N: x\nE: 2.0 0001 0001 1\nE: 1.0 0001 0001 0\n", "line 3: E: time goes backwards (1.0)"),
      ("# EVEMU 2.0\nN: x\n", "line 1: format 2.0 is not supported (1.x is)"),
      ("N: x\nI: 0003 05ac\n", "line 2: I: takes bus, vendor, product and version in hex"),
      ("N: x\nB: 01 fg\n", "line 2: B: \"fg\" is not a hex byte"),
      ("N: x\nA: 00 10 -10 0 0\n", "line 2: A: the minimum 10 is above the maximum -10"),
      ("N: x\nQ: 1\n", "line 2: unknown line type \"Q:\""),
      ("N: x\nhello\n", "line 2: expected a line like \"E: …\", found \"hello\""),
      ("E: 0.1 0001 0001 1\n", "no device name (an N: line)"),
    ])
  func malformed(text: String, message: String) {
    #expect(throws: EvemuError.self) { try EvemuRecording.parse(text) }
    do {
      _ = try EvemuRecording.parse(text)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test("a bitmask longer than any event type's codes is refused")
  func oversizedMask() {
    let text = "N: x\n" + String(repeating: "B: 01 ff ff ff ff ff ff ff ff\n", count: 17)
    #expect(throws: EvemuError(line: 18, "B: too many bitmask bytes for type 01")) {
      try EvemuRecording.parse(text)
    }
  }
}

@Suite("evemu streams")
struct EvemuStreamParserTests {
  @Test("a recording read line by line gives its events and device, as a whole file does")
  func lineByLine() throws {
    let text = try fixture("gamepad")
    let whole = try EvemuRecording.parse(text)
    var stream = EvemuStreamParser()
    var events: [InputEvent] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if let event = try stream.take(line) { events.append(event) }
    }
    #expect(events == whole.events)
    #expect(stream.device == whole.device)
  }

  @Test("a bad line is refused with its number; time going backwards too")
  func badLines() throws {
    var stream = EvemuStreamParser()
    _ = try stream.take("# EVEMU 1.3")
    _ = try stream.take("N: pad")
    _ = try stream.take("E: 2.000000 0001 0130 1")
    #expect(throws: EvemuError(line: 4, "E: time goes backwards (1.000000)")) {
      try stream.take("E: 1.000000 0001 0130 0")
    }
    #expect(throws: EvemuError(line: 5, "E: \"0900\" is not an event code (0 to 2ff)")) {
      try stream.take("E: 3.000000 0001 0900 0")
    }
  }
}
