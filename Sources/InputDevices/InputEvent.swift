/// One kernel input event (`struct input_event`): its time, type, code and value.
public struct InputEvent: Sendable, Equatable {
  /// The kernel's timestamp, nanoseconds (a recording's own clock, or `CLOCK_MONOTONIC`).
  public var time: UInt64
  /// The event type (`EV_KEY`, `EV_ABS`, …; see ``InputEventCode``).
  public var type: UInt16
  /// The code within the type (`KEY_UP`, `ABS_X`, …).
  public var code: UInt16
  /// The value: 1 down, 0 up, 2 autorepeat for keys; the position for absolute axes.
  public var value: Int32

  /// An event.
  public init(time: UInt64, type: UInt16, code: UInt16, value: Int32) {
    self.time = time
    self.type = type
    self.code = code
    self.value = value
  }
}

/// The range of an absolute axis (`struct input_absinfo`, an evemu `A:` line).
public struct AxisRange: Sendable, Equatable {
  /// The lowest value.
  public var minimum: Int32
  /// The highest value.
  public var maximum: Int32
  /// Noise the kernel filters out.
  public var fuzz: Int32
  /// The flat zone around the centre the device reports.
  public var flat: Int32
  /// Units per millimetre (or per radian).
  public var resolution: Int32

  /// A range.
  public init(
    minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0
  ) {
    self.minimum = minimum
    self.maximum = maximum
    self.fuzz = fuzz
    self.flat = flat
    self.resolution = resolution
  }

  /// `value` as a position in [−1, 1] around the range's centre.
  public func position(_ value: Int32) -> Double {
    let half = (Double(maximum) - Double(minimum)) / 2
    guard half > 0 else { return 0 }
    let centre = (Double(maximum) + Double(minimum)) / 2
    return min(1, max(-1, (Double(value) - centre) / half))
  }
}

/// What a device says it is and can send: an evemu recording's descriptor lines, or what
/// libevdev reports of a live node.
public struct DeviceDescription: Sendable, Equatable {
  /// The device's name (`N:`).
  public var name: String
  /// Bus type, vendor, product and version (`I:`).
  public var bus: UInt16 = 0
  /// The USB or Bluetooth vendor id.
  public var vendor: UInt16 = 0
  /// The product id.
  public var product: UInt16 = 0
  /// The version.
  public var version: UInt16 = 0
  /// The codes the device supports, by event type (`B:` bitmasks).
  public var codes: [UInt16: Set<UInt16>] = [:]
  /// Absolute axes' ranges, by code (`A:`).
  public var axes: [UInt16: AxisRange] = [:]

  /// A description.
  public init(name: String) { self.name = name }

  /// Whether the device can send `code` of `type`.
  public func supports(_ type: UInt16, _ code: UInt16) -> Bool {
    codes[type]?.contains(code) ?? false
  }

  /// What kind of remote the device looks like: a gamepad has the south button; a media
  /// remote's node has OK or Select (consumer control, rc-core; such nodes often claim
  /// letters too); a keyboard has letters; a mouse has relative X/Y and the left button, a
  /// touchpad absolute X/Y and a finger tool (a touchscreen has no finger tool: not a
  /// pointer); a node with arrows or Play/Pause alone is a remote. Anything else (a power
  /// button, a lid switch, an accelerometer) is nil.
  public var kind: DeviceKind? {
    let key = InputEventCode.evKey
    if supports(key, InputEventCode.btnSouth) { return .gamepad }
    if supports(key, InputEventCode.keyOK) || supports(key, InputEventCode.keySelect) {
      return .remote
    }
    if supports(key, InputEventCode.keyA) { return .keyboard }
    let rel = InputEventCode.evRel
    if supports(key, InputEventCode.btnLeft), supports(rel, InputEventCode.relX),
      supports(rel, InputEventCode.relY)
    {
      return .pointer
    }
    if supports(key, InputEventCode.btnToolFinger),
      supports(InputEventCode.evAbs, InputEventCode.absX),
      supports(InputEventCode.evAbs, InputEventCode.absY)
    {
      return .pointer
    }
    if supports(key, InputEventCode.keyUp) || supports(key, InputEventCode.keyPlayPause) {
      return .remote
    }
    return nil
  }
}

/// The kinds of device the remote can use. `tenfoot-remote device --all` follows keyboards,
/// remotes and gamepads; pointers (mice, touchpads) only when named, or with `--pointers`.
public enum DeviceKind: String, Sendable, Equatable {
  case keyboard, remote, gamepad
  /// A mouse or touchpad: its motion becomes touch-surface gestures (``PointerTranslator``).
  case pointer
}
