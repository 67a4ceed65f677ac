import CEvdev
import Foundation
import InputDevices
import LinuxInput
import TestSupport
import Testing

/// A libevdev device made in memory with `libevdev_new()` (no kernel node, no /dev/uinput):
/// the classifier reads it through the same `EvdevDevice.describe` a live node goes through.
private final class MemoryDevice {
  let device: OpaquePointer

  init(_ name: String, keys: [UInt16] = [], relative: [UInt16] = [], absolute: [UInt16] = []) {
    device = libevdev_new()
    libevdev_set_name(device, name)
    libevdev_set_id_bustype(device, 0x03)
    libevdev_set_id_vendor(device, 0x045e)
    libevdev_set_id_product(device, 0x028e)
    for code in keys { libevdev_enable_event_code(device, UInt32(EV_KEY), UInt32(code), nil) }
    for code in relative { libevdev_enable_event_code(device, UInt32(EV_REL), UInt32(code), nil) }
    for code in absolute {
      var info = input_absinfo(
        value: 0, minimum: -32768, maximum: 32767, fuzz: 16, flat: 128, resolution: 0)
      libevdev_enable_event_code(device, UInt32(EV_ABS), UInt32(code), &info)
    }
  }

  deinit { libevdev_free(device) }

  var description: DeviceDescription { EvdevDevice.describe(device) }
}

@Suite("live input devices through libevdev")
struct EvdevDeviceTests {
  @Test("the classifier on libevdev devices: keyboard, media remote, gamepad, mouse, touchpad")
  func classifier() {
    let keyboard = MemoryDevice(
      "USB Keyboard",
      keys: [
        InputEventCode.keyA, InputEventCode.keyEnter, InputEventCode.keyUp, InputEventCode.keyEsc,
      ])
    let remote = MemoryDevice(
      "Media Remote Consumer Control",
      keys: [InputEventCode.keyOK, InputEventCode.keyUp, InputEventCode.keyA])
    let arrowsOnly = MemoryDevice(
      "rc-core IR remote", keys: [InputEventCode.keyUp, InputEventCode.keyPlayPause])
    let gamepad = MemoryDevice(
      "Xbox Wireless Controller", keys: [InputEventCode.btnSouth, InputEventCode.btnEast],
      absolute: [InputEventCode.absX, InputEventCode.absY, InputEventCode.absHat0X])
    let mouse = MemoryDevice(
      "USB Optical Mouse", keys: [InputEventCode.btnLeft],
      relative: [InputEventCode.relX, InputEventCode.relY])
    let touchpad = MemoryDevice(
      "SynPS/2 Touchpad",
      keys: [InputEventCode.btnLeft, InputEventCode.btnTouch, InputEventCode.btnToolFinger],
      absolute: [InputEventCode.absX, InputEventCode.absY])
    let touchscreen = MemoryDevice(
      "Touchscreen", keys: [InputEventCode.btnTouch],
      absolute: [InputEventCode.absX, InputEventCode.absY])
    let powerButton = MemoryDevice("Power Button", keys: [116])

    #expect(keyboard.description.kind == .keyboard)
    #expect(remote.description.kind == .remote)
    #expect(arrowsOnly.description.kind == .remote)
    #expect(gamepad.description.kind == .gamepad)
    #expect(mouse.description.kind == .pointer)
    #expect(touchpad.description.kind == .pointer)
    #expect(touchscreen.description.kind == nil)
    #expect(powerButton.description.kind == nil)
  }

  @Test("describe reads the name, ids, codes and axis ranges libevdev holds")
  func describe() {
    let gamepad = MemoryDevice(
      "Xbox Wireless Controller", keys: [InputEventCode.btnSouth],
      absolute: [InputEventCode.absX])
    let description = gamepad.description
    #expect(description.name == "Xbox Wireless Controller")
    #expect(
      description.bus == 0x03 && description.vendor == 0x045e && description.product == 0x028e)
    #expect(description.supports(InputEventCode.evKey, InputEventCode.btnSouth))
    #expect(!description.supports(InputEventCode.evKey, InputEventCode.keyA))
    #expect(
      description.axes[InputEventCode.absX]
        == AxisRange(minimum: -32768, maximum: 32767, fuzz: 16, flat: 128, resolution: 0))
  }

  @Test("a path that is not an input device is refused with a sentence, not a crash")
  func notADevice() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path + "/notes.txt"
    try "not a device\n".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(throws: EvdevError.notAnInputDevice(path: file, errno: ENOTTY)) {
      try EvdevDevice(path: file)
    }
    #expect(throws: EvdevError.notAnInputDevice(path: "/dev/null", errno: ENOTTY)) {
      try EvdevDevice(path: "/dev/null")
    }
    let missing = directory.path + "/usb-Gone-event-kbd"
    do {
      _ = try EvdevDevice(path: missing)
      Issue.record("opened a missing path")
    } catch {
      #expect(error == .cannotOpen(path: missing, errno: ENOENT))
      #expect(error.description == "cannot open \(missing): No such file or directory")
    }
    #expect(
      EvdevError.notAnInputDevice(path: file, errno: ENOTTY).description
        == "\(file) is not a Linux input device (evdev): Inappropriate ioctl for device")
    #expect(
      EvdevError.cannotOpen(path: "/dev/input/event3", errno: EACCES).description.contains(
        "'input' group"))
  }

  @Test("a path that is not a CEC adapter is refused with a sentence")
  func notACECAdapter() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path + "/cec0"
    try "".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(throws: CECAdapterError.notACECAdapter(path: file, errno: ENOTTY)) {
      try CECAdapter(path: file, name: "TenFoot")
    }
    #expect(throws: CECAdapterError.cannotOpen(path: directory.path + "/cec9", errno: ENOENT)) {
      try CECAdapter(path: directory.path + "/cec9", name: "TenFoot")
    }
  }

  @Test("kernel input_event times become nanoseconds")
  func eventTime() {
    var raw = input_event()
    raw.time.tv_sec = 12
    raw.time.tv_usec = 345_678
    raw.type = UInt16(EV_KEY)
    raw.code = InputEventCode.keyUp
    raw.value = 1
    #expect(
      EvdevDevice.event(raw)
        == InputEvent(time: 12_345_678_000, type: InputEventCode.evKey, code: 103, value: 1))
  }
}
