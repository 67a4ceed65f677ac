import FocusEngine
import Foundation

/// Which device keys and axes become which remote keys: a JSON file a person can edit
/// (docs/input-devices.md), with defaults for keyboards, media remotes and gamepads.
///
/// ```json
/// { "keys": { "KEY_UP": "up", "BTN_SOUTH": "select" },
///   "axes": { "ABS_HAT0X": { "negative": "left", "positive": "right" } },
///   "deadZone": 0.5, "pointer": { "model": "pointer", "speed": 1.5 } }
/// ```
/// Key names are the kernel's (`linux/input-event-codes.h`); a number (`"0x160"` or `"352"`)
/// names any other code. A file replaces the defaults it names and keeps the rest unless it
/// says `"replaceDefaults": true`.
public struct DeviceMapping: Sendable, Equatable {
  /// Remote keys by `EV_KEY` code.
  public var keys: [UInt16: RemoteButton]
  /// Directions by `EV_ABS` code.
  public var axes: [UInt16: AxisMapping]
  /// How far from its centre (0…1 of the half range) a stick must move to press a direction;
  /// it releases when it comes back inside. Hats (−1, 0, 1) are unaffected by any value below 1.
  public var deadZone: Double
  /// Where mice and touchpads go (the pointer model by default) and how fast.
  public var pointer = PointerSettings()

  /// The two keys an axis presses.
  public struct AxisMapping: Sendable, Equatable, Codable {
    /// Pressed below the centre (left, up).
    public var negative: RemoteButton
    /// Pressed above the centre (right, down).
    public var positive: RemoteButton

    /// An axis mapping.
    public init(negative: RemoteButton, positive: RemoteButton) {
      self.negative = negative
      self.positive = positive
    }
  }

  /// A mapping.
  public init(keys: [UInt16: RemoteButton], axes: [UInt16: AxisMapping], deadZone: Double) {
    self.keys = keys
    self.axes = axes
    self.deadZone = deadZone
  }

  /// The defaults: keyboard arrows, Enter, Esc, Tab and Space; the consumer-control keys of
  /// media remotes; gamepads per the Linux gamepad specification (D-pad buttons, hat and left
  /// stick → arrows, south → select, east → menu, start → play/pause).
  public static let defaults = DeviceMapping(
    keys: Dictionary(
      uniqueKeysWithValues: defaultKeyNames.compactMap { name, key in
        InputEventCode.keyNames[name].map { ($0, key) }
      }),
    axes: [
      InputEventCode.absHat0X: AxisMapping(negative: .left, positive: .right),
      InputEventCode.absHat0Y: AxisMapping(negative: .up, positive: .down),
      InputEventCode.absX: AxisMapping(negative: .left, positive: .right),
      InputEventCode.absY: AxisMapping(negative: .up, positive: .down),
    ],
    deadZone: 0.5)

  /// The default keys by kernel name.
  public static let defaultKeyNames: [(String, RemoteButton)] = [
    // Keyboards.
    ("KEY_UP", .up), ("KEY_DOWN", .down), ("KEY_LEFT", .left), ("KEY_RIGHT", .right),
    ("KEY_ENTER", .select), ("KEY_KPENTER", .select), ("KEY_SPACE", .playPause),
    ("KEY_ESC", .menu), ("KEY_BACKSPACE", .menu), ("KEY_TAB", .tab),
    ("KEY_PAGEUP", .pageUp), ("KEY_PAGEDOWN", .pageDown), ("KEY_HOME", .home),
    // Media remotes (consumer control, rc-core).
    ("KEY_OK", .select), ("KEY_SELECT", .select), ("KEY_BACK", .menu), ("KEY_EXIT", .menu),
    ("KEY_MENU", .menu), ("KEY_HOMEPAGE", .home), ("KEY_TV", .home),
    ("KEY_PLAYPAUSE", .playPause), ("KEY_PLAY", .playPause), ("KEY_PAUSE", .playPause),
    ("KEY_PLAYCD", .playPause), ("KEY_PAUSECD", .playPause),
    ("KEY_VOLUMEUP", .volumeUp), ("KEY_VOLUMEDOWN", .volumeDown), ("KEY_MUTE", .mute),
    ("KEY_POWER", .power), ("KEY_INFO", .info),
    ("KEY_CHANNELUP", .pageUp), ("KEY_CHANNELDOWN", .pageDown),
    // Gamepads (Documentation/input/gamepad.rst).
    ("BTN_DPAD_UP", .up), ("BTN_DPAD_DOWN", .down), ("BTN_DPAD_LEFT", .left),
    ("BTN_DPAD_RIGHT", .right), ("BTN_SOUTH", .select), ("BTN_EAST", .menu),
    ("BTN_START", .playPause), ("BTN_MODE", .home), ("BTN_TL", .shiftTab), ("BTN_TR", .tab),
  ]

  /// Reads a mapping file over the defaults.
  public static func load(path: String) throws(DeviceMappingError) -> DeviceMapping {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw DeviceMappingError("cannot read \(path): \(error.localizedDescription)")
    }
    do {
      return try parse(data)
    } catch {
      throw DeviceMappingError("\(path): \(error.description)")
    }
  }

  private struct File: Decodable {
    var keys: [String: RemoteButton]?
    var axes: [String: AxisMapping]?
    var deadZone: Double?
    var replaceDefaults: Bool?
    var pointer: Pointer?
  }

  private struct Pointer: Decodable {
    var model: String?
    var speed: Double?
  }

  /// Parses a mapping file's JSON over the defaults.
  public static func parse(_ data: Data) throws(DeviceMappingError) -> DeviceMapping {
    let file: File
    do {
      file = try JSONDecoder().decode(File.self, from: data)
    } catch {
      throw DeviceMappingError(
        "not a mapping file (keys: {\"KEY_…\": \"up\"…}, axes, deadZone, pointer; remote keys: "
          + RemoteButton.allCases.map(\.rawValue).joined(separator: ", ") + "): \(error)")
    }
    var mapping =
      file.replaceDefaults == true ? DeviceMapping(keys: [:], axes: [:], deadZone: 0.5) : defaults
    for (name, key) in file.keys ?? [:] {
      mapping.keys[try code(name, names: InputEventCode.keyNames, limit: 0x2ff)] = key
    }
    for (name, axis) in file.axes ?? [:] {
      mapping.axes[try code(name, names: InputEventCode.absoluteAxisNames, limit: 0x3f)] = axis
    }
    if let deadZone = file.deadZone {
      guard deadZone.isFinite, deadZone > 0, deadZone < 1 else {
        throw DeviceMappingError("deadZone is between 0 and 1 (exclusive), not \(deadZone)")
      }
      mapping.deadZone = deadZone
    }
    if let model = file.pointer?.model {
      guard let known = PointerSettings.Model(rawValue: model) else {
        throw DeviceMappingError(
          "pointer.model is "
            + PointerSettings.Model.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            + ", not \"\(model)\"")
      }
      mapping.pointer.model = known
    }
    if let speed = file.pointer?.speed {
      guard speed.isFinite, speed > 0, speed <= 100 else {
        throw DeviceMappingError("pointer.speed is above 0 and at most 100, not \(speed)")
      }
      mapping.pointer.speed = speed
    }
    return mapping
  }

  private static func code(_ name: String, names: [String: UInt16], limit: UInt16)
    throws(DeviceMappingError) -> UInt16
  {
    if let code = names[name.uppercased()] { return code }
    let number =
      name.lowercased().hasPrefix("0x") ? UInt16(name.dropFirst(2), radix: 16) : UInt16(name)
    guard let number, number <= limit else {
      throw DeviceMappingError(
        "unknown code \"\(name)\": use a kernel name (KEY_UP, BTN_SOUTH, ABS_HAT0X) or a number")
    }
    return number
  }
}

/// A mapping file that cannot be used, as a sentence.
public struct DeviceMappingError: Error, Sendable, CustomStringConvertible {
  /// What is wrong.
  public let description: String
  /// An error.
  public init(_ description: String) { self.description = description }
}
