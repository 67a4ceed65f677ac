import FocusEngine
import Foundation
import InputDevices
import Testing

private func key(_ code: UInt16, _ value: Int32, at ms: UInt64) -> InputEvent {
  InputEvent(time: ms * 1_000_000, type: InputEventCode.evKey, code: code, value: value)
}

private func abs(_ code: UInt16, _ value: Int32, at ms: UInt64) -> InputEvent {
  InputEvent(time: ms * 1_000_000, type: InputEventCode.evAbs, code: code, value: value)
}

private func run(_ recording: EvemuRecording) -> [DeviceOutput] {
  var translator = DeviceTranslator(axes: recording.device.axes)
  return recording.events.flatMap { translator.handle($0) }
}

/// Remote key downs and ups only (autorepeat becomes held ticks).
private func presses(_ outputs: [DeviceOutput]) -> [String] {
  outputs.compactMap {
    guard case .key(let key, let phase, _) = $0, phase != .held else { return nil }
    return "\(key.rawValue) \(phase.rawValue)"
  }
}

@Suite("device translator")
struct DeviceTranslatorTests {
  @Test("the keyboard recording: presses, autorepeat as held ticks, F1 reported once")
  func keyboard() throws {
    let outputs = run(try EvemuRecording.parse(fixture("usb-keyboard")))
    #expect(
      presses(outputs) == [
        "right down", "right up", "right down", "right up", "down down", "down up",
        "right down", "right up", "select down", "select up",
      ])
    let held = outputs.filter { if case .key(.right, .held, _) = $0 { true } else { false } }
    #expect(held.count == 24)  // (1030 − 250) / 33, rounded up: the kernel's repeats
    #expect(outputs.contains(.unmappedKey(59)))
    // The hold's release carries the kernel's time exactly: 1.03 s after its press.
    let rightEvents = outputs.compactMap { output -> UInt64? in
      guard case .key(.right, let phase, let at) = output, phase != .held else { return nil }
      return at
    }
    #expect(rightEvents[5] - rightEvents[4] == 1_030_000_000)
  }

  @Test("the media remote recording: down, a hold of right, select")
  func mediaRemote() throws {
    let outputs = run(try EvemuRecording.parse(fixture("media-remote")))
    #expect(
      presses(outputs) == [
        "down down", "down up", "right down", "right up", "select down", "select up",
      ])
  }

  @Test("the gamepad recording: hat right, the stick's wobble ignored, stick down, south")
  func gamepad() throws {
    let outputs = run(try EvemuRecording.parse(fixture("gamepad")))
    #expect(
      presses(outputs) == [
        "right down", "right up", "down down", "down up", "select down", "select up",
      ])
  }

  @Test("kernel autorepeat is a held tick, never a press; one not seen going down is dropped")
  func autorepeat() {
    var translator = DeviceTranslator()
    #expect(translator.handle(key(InputEventCode.keyUp, 2, at: 5)) == [])
    #expect(
      translator.handle(key(InputEventCode.keyUp, 1, at: 10)) == [.key(.up, .down, at: 10_000_000)])
    #expect(
      translator.handle(key(InputEventCode.keyUp, 2, at: 260)) == [
        .key(.up, .held, at: 260_000_000)
      ])
    #expect(translator.handle(key(InputEventCode.keyUp, 1, at: 270)) == [])
    #expect(
      translator.handle(key(InputEventCode.keyUp, 0, at: 300)) == [.key(.up, .up, at: 300_000_000)])
    #expect(!translator.isHolding)
  }

  @Test(
    "the stick presses outside the dead zone and releases inside it",
    arguments: [
      (Int32(16383), [String]()),  // just under half
      (Int32(16384), ["right down"]),
      (Int32(32767), ["right down"]),
      (Int32(-16385), ["left down"]),
    ] as [(Int32, [String])])
  func deadZone(value: Int32, expected: [String]) {
    var translator = DeviceTranslator(
      axes: [InputEventCode.absX: AxisRange(minimum: -32768, maximum: 32767)])
    #expect(presses(translator.handle(abs(InputEventCode.absX, value, at: 1))) == expected)
    #expect(
      presses(translator.handle(abs(InputEventCode.absX, 100, at: 2)))
        == expected.map { $0.replacingOccurrences(of: "down", with: "up") })
  }

  @Test("a stick crossing from left to right releases left, then presses right")
  func crossing() {
    var translator = DeviceTranslator(axes: [
      InputEventCode.absX: AxisRange(minimum: 0, maximum: 255)
    ])
    _ = translator.handle(abs(InputEventCode.absX, 0, at: 1))
    #expect(
      translator.handle(abs(InputEventCode.absX, 255, at: 2)) == [
        .key(.left, .up, at: 2_000_000), .key(.right, .down, at: 2_000_000),
      ])
    #expect(translator.keysDown == [.right])
  }

  @Test("the dead zone comes from the mapping file")
  func deadZoneFromFile() throws {
    let mapping = try DeviceMapping.parse(Data(#"{"deadZone": 0.9}"#.utf8))
    var translator = DeviceTranslator(
      mapping: mapping, axes: [InputEventCode.absY: AxisRange(minimum: -100, maximum: 100)])
    #expect(translator.handle(abs(InputEventCode.absY, 80, at: 1)) == [])
    #expect(presses(translator.handle(abs(InputEventCode.absY, 95, at: 2))) == ["down down"])
  }

  @Test("ticks repeat every key down; the hat and the D-pad button press one key once")
  func ticksAndSharedKey() {
    var translator = DeviceTranslator()
    _ = translator.handle(abs(InputEventCode.absHat0Y, -1, at: 0))
    #expect(translator.handle(key(InputEventCode.btnDpadUp, 1, at: 10)) == [])
    #expect(translator.tick(at: 50_000_000) == [.key(.up, .held, at: 50_000_000)])
    #expect(translator.handle(abs(InputEventCode.absHat0Y, 0, at: 60)) == [])
    #expect(
      translator.handle(key(InputEventCode.btnDpadUp, 0, at: 70)) == [
        .key(.up, .up, at: 70_000_000)
      ])
    #expect(translator.tick(at: 100_000_000) == [])
  }

  @Test("SYN_DROPPED and a vanished device release every key")
  func releaseAll() {
    var translator = DeviceTranslator()
    _ = translator.handle(key(InputEventCode.keyRight, 1, at: 1))
    _ = translator.handle(key(InputEventCode.btnSouth, 1, at: 2))
    let dropped = InputEvent(
      time: 3_000_000, type: InputEventCode.evSyn, code: InputEventCode.synDropped, value: 0)
    #expect(
      translator.handle(dropped) == [
        .key(.select, .up, at: 3_000_000), .key(.right, .up, at: 3_000_000),
      ])
    #expect(translator.handle(key(InputEventCode.keyRight, 0, at: 4)) == [])
  }

  @Test("an unknown key code is reported on its first press only, and changes nothing")
  func unknownOnce() {
    var translator = DeviceTranslator()
    #expect(translator.handle(key(0x2bf, 1, at: 1)) == [.unmappedKey(0x2bf)])
    #expect(translator.handle(key(0x2bf, 0, at: 2)) == [])
    #expect(translator.handle(key(0x2bf, 1, at: 3)) == [])
    #expect(!translator.isHolding)
  }
}

@Suite("device mapping file")
struct DeviceMappingTests {
  @Test("defaults follow the keyboard, media remote and gamepad conventions")
  func defaults() {
    let keys = DeviceMapping.defaults.keys
    let expected: [(String, RemoteButton)] = [
      ("KEY_ENTER", .select), ("KEY_ESC", .menu), ("KEY_TAB", .tab), ("KEY_OK", .select),
      ("KEY_SELECT", .select), ("KEY_BACK", .menu), ("KEY_HOMEPAGE", .home),
      ("KEY_PLAYPAUSE", .playPause), ("KEY_PLAY", .playPause), ("KEY_PAUSE", .playPause),
      ("KEY_MENU", .menu), ("BTN_SOUTH", .select), ("BTN_EAST", .menu), ("BTN_START", .playPause),
      ("BTN_DPAD_LEFT", .left),
    ]
    for (name, key) in expected {
      #expect(keys[InputEventCode.keyNames[name] ?? 0] == key, "\(name)")
    }
    #expect(DeviceMapping.defaults.axes[InputEventCode.absY]?.negative == .up)
  }

  @Test("a file overrides and adds, by kernel name or number, and keeps the other defaults")
  func overrides() throws {
    let json = #"{"keys": {"KEY_SPACE": "select", "0x2c0": "info", "KEY_ESC": "home"}}"#
    let mapping = try DeviceMapping.parse(Data(json.utf8))
    #expect(mapping.keys[InputEventCode.keySpace] == .select)
    #expect(mapping.keys[0x2c0] == .info)
    #expect(mapping.keys[InputEventCode.keyEsc] == .home)
    #expect(mapping.keys[InputEventCode.keyUp] == .up)
  }

  @Test("replaceDefaults starts from nothing")
  func replace() throws {
    let mapping = try DeviceMapping.parse(
      Data(#"{"replaceDefaults": true, "keys": {"30": "select"}}"#.utf8))
    #expect(mapping.keys == [InputEventCode.keyA: .select])
    #expect(mapping.axes.isEmpty)
    #expect(mapping.keys[InputEventCode.keyUp] == nil)
  }

  @Test(
    "bad files are refused with a sentence",
    arguments: [
      (#"{"keys": {"KEY_NOPE": "up"}}"#, "unknown code \"KEY_NOPE\""),
      (#"{"keys": {"KEY_UP": "sideways"}}"#, "not a mapping file"),
      (#"{"deadZone": 1.5}"#, "deadZone is between 0 and 1"),
      (#"{"axes": {"ABS_X": {"negative": "left"}}}"#, "not a mapping file"),
      ("[", "not a mapping file"),
    ])
  func bad(json: String, message: String) {
    do {
      _ = try DeviceMapping.parse(Data(json.utf8))
      Issue.record("accepted \(json)")
    } catch {
      #expect(error.description.contains(message), "\(error)")
    }
  }
}
