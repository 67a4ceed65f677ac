import FocusEngine

/// HDMI-CEC remote control messages → remote keys, pure: the kernel CEC framework's received
/// messages (`struct cec_msg`: up to 16 bytes and a receive timestamp) in, key events out.
///
/// A message is a header byte (initiator << 4 | destination), then an opcode and operands.
/// Only two opcodes matter: **User Control Pressed** (0x44, one UI command code operand) and
/// **User Control Released** (0x45, none). A TV repeats Pressed while its button is held
/// (about every 0.5 s): a repeat of the key down is a `held` tick, a Pressed of another key
/// releases the first. Other opcodes and polls (a header alone) are ignored.
public struct CECTranslator: Sendable, Equatable {
  /// The CEC framework's largest message (`CEC_MAX_MSG_SIZE`).
  public static let maximumLength = 16
  /// User Control Pressed.
  public static let userControlPressed: UInt8 = 0x44
  /// User Control Released.
  public static let userControlReleased: UInt8 = 0x45

  /// Remote keys by UI command code (HDMI-CEC 1.4, table "User Control Codes").
  public static let keys: [UInt8: RemoteButton] = [
    0x00: .select, 0x01: .up, 0x02: .down, 0x03: .left, 0x04: .right,
    0x09: .home,  // Root Menu
    0x0a: .menu,  // Setup Menu
    0x0d: .menu,  // Exit (Back)
    0x30: .pageUp, 0x31: .pageDown,  // Channel Up/Down
    0x35: .info,  // Display Information
    0x40: .power, 0x41: .volumeUp, 0x42: .volumeDown, 0x43: .mute,
    0x44: .playPause, 0x46: .playPause,  // Play, Pause
    0x61: .playPause,  // Pause-Play Function
    0x6b: .power,  // Power Toggle Function
  ]

  /// How long a key stays down without a repeated Pressed before it counts as released
  /// (a lost Released): HDMI-CEC's follower safety timeout, 550 ms.
  public static let safetyTimeout: UInt64 = 550_000_000

  private var down: RemoteButton?
  private var lastPressedAt: UInt64 = 0
  private var reported: Set<UInt8> = []

  /// The key down, if any.
  public var keyDown: RemoteButton? { down }

  /// When a key down counts as released if no Pressed repeats it.
  public var releaseDeadline: UInt64? { down == nil ? nil : lastPressedAt + Self.safetyTimeout }

  /// The shell's 50 ms tick while a key is down: a `held` tick at `time`, or the release
  /// (stamped at the deadline) once the safety timeout has passed without a repeat.
  public mutating func tick(at time: UInt64) -> [DeviceOutput] {
    guard let key = down else { return [] }
    let deadline = lastPressedAt + Self.safetyTimeout
    guard time < deadline else {
      down = nil
      return [.key(key, .up, at: deadline)]
    }
    return [.key(key, .held, at: time)]
  }

  /// A translator with nothing pressed.
  public init() {}

  /// Handles one received message, `time` its receive timestamp (nanoseconds, monotonic).
  /// Refuses an empty, oversized or malformed control message with ``CECError``; the
  /// state is unchanged then.
  public mutating func handle(_ message: [UInt8], at time: UInt64) throws(CECError)
    -> [DeviceOutput]
  {
    guard !message.isEmpty else { throw CECError("an empty message (no header byte)") }
    guard message.count <= Self.maximumLength else {
      throw CECError("a message of \(message.count) bytes (CEC messages are at most 16)")
    }
    guard message.count >= 2 else { return [] }  // a poll
    switch message[1] {
    case Self.userControlPressed:
      guard message.count >= 3 else {
        throw CECError("User Control Pressed without its UI command code")
      }
      return pressed(message[2], at: time)
    case Self.userControlReleased:
      guard message.count == 2 else {
        throw CECError(
          "User Control Released with \(message.count - 2) operand bytes (it has none)")
      }
      return release(at: time)
    default:
      return []
    }
  }

  private mutating func pressed(_ code: UInt8, at time: UInt64) -> [DeviceOutput] {
    guard let key = Self.keys[code] else {
      // An unmapped code; `unmappedKey` carries it in the CEC code space (0–255).
      return reported.insert(code).inserted ? [.unmappedKey(UInt16(code))] : []
    }
    if down == key {
      lastPressedAt = time
      return [.key(key, .held, at: time)]
    }
    let outputs = release(at: time)
    down = key
    lastPressedAt = time
    return outputs + [.key(key, .down, at: time)]
  }

  private mutating func release(at time: UInt64) -> [DeviceOutput] {
    guard let key = down else { return [] }
    down = nil
    return [.key(key, .up, at: time)]
  }

  /// Parses `cec-ctl`'s notation of a message, hex bytes separated by colons (`40:44:01`).
  public static func bytes(_ text: String) throws(CECError) -> [UInt8] {
    var bytes: [UInt8] = []
    for part in text.split(separator: ":", omittingEmptySubsequences: false) {
      guard part.count == 2, let byte = UInt8(part, radix: 16) else {
        throw CECError("\"\(text.prefix(60))\" is not hex bytes like 40:44:01")
      }
      bytes.append(byte)
    }
    return bytes
  }
}

/// A CEC message refused, as a sentence.
public struct CECError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public let description: String
  /// An error.
  public init(_ description: String) { self.description = description }
}
