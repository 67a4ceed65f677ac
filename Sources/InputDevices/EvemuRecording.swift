/// A recording in the text format of `evemu-record` (Debian's `evemu-tools`, format 1.3):
/// the device's descriptor lines, then its events.
///
/// ```
/// # EVEMU 1.3
/// N: Keychron Keychron C1                 name
/// I: 0003 05ac 024f 0111                  bus vendor product version (hex)
/// P: 00 00 00 00 00 00 00 00              property bitmask bytes (hex)
/// B: 01 fe ff ff ff ff ff ff ff           type, then 8 bitmask bytes of its codes; repeated
///                                         B: lines of one type continue the mask
/// A: 00 -32768 32767 16 128 0             axis code (hex), min max fuzz flat [resolution]
/// L: 00 0                                 LED code (hex) and state
/// S: 00 0                                 switch code (hex) and state
/// E: 3.640121 0001 003b 0001              seconds.microseconds type code (hex) value
/// ```
/// `#` starts a comment (evemu annotates each event line with one).
public struct EvemuRecording: Sendable, Equatable {
  /// The device, from the descriptor lines.
  public var device: DeviceDescription
  /// The events in file order, times in nanoseconds of the recording's clock.
  public var events: [InputEvent]

  /// The largest file accepted (16 MiB): a recording is text a person made.
  public static let maximumBytes = 16 << 20

  /// Parses a recording; refuses a malformed one with ``EvemuError`` naming the line.
  public static func parse(_ text: String) throws(EvemuError) -> EvemuRecording {
    guard text.utf8.count <= maximumBytes else {
      throw EvemuError(line: 0, "the file is larger than \(maximumBytes >> 20) MiB")
    }
    var parser = Parser()
    var number = 0
    // `isNewline`: "\r\n" is one Character in Swift, so CRLF files split too.
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      number += 1
      try parser.take(rawLine, number: number)
    }
    guard parser.sawName else { throw EvemuError(line: 0, "no device name (an N: line)") }
    return EvemuRecording(device: parser.device, events: parser.events)
  }

  fileprivate struct Parser {
    var device = DeviceDescription(name: "")
    var events: [InputEvent] = []
    var sawName = false
    var sawHeader = false
    var maskOffsets: [UInt16: Int] = [:]

    mutating func take(_ rawLine: Substring, number: Int) throws(EvemuError) {
      var line = rawLine
      if line.hasSuffix("\r") { line = line.dropLast() }
      if number == 1, line.hasPrefix("# EVEMU ") {
        try checkVersion(line.dropFirst(8), number: number)
        return
      }
      if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
      let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
      guard !trimmed.isEmpty else { return }
      guard trimmed.count >= 2, trimmed.dropFirst().first == ":" else {
        throw EvemuError(line: number, "expected a line like \"E: …\", found \"\(clip(trimmed))\"")
      }
      let tag = trimmed.first ?? " "
      let body = trimmed.dropFirst(2)
      let words = body.split(whereSeparator: { $0 == " " || $0 == "\t" })
      switch tag {
      case "N":
        device.name = String(body.drop(while: { $0 == " " }))
        sawName = true
      case "I": try identity(words, number: number)
      case "P": _ = try hexBytes(words, number: number, what: "P:")
      case "B": try mask(words, number: number)
      case "A": try axis(words, number: number)
      case "L", "S": try pair(words, number: number, what: "\(tag):")
      case "E": try event(words, number: number)
      default:
        throw EvemuError(line: number, "unknown line type \"\(tag):\"")
      }
    }

    mutating func checkVersion(_ version: Substring, number: Int) throws(EvemuError) {
      let parts = version.split(separator: ".")
      guard parts.count == 2, let major = Int(parts[0]), Int(parts[1]) != nil else {
        throw EvemuError(line: number, "unreadable format version \"\(clip(version))\"")
      }
      guard major == 1 else {
        throw EvemuError(line: number, "format \(version) is not supported (1.x is)")
      }
      sawHeader = true
    }

    mutating func identity(_ words: [Substring], number: Int) throws(EvemuError) {
      guard words.count == 4 else {
        throw EvemuError(line: number, "I: takes bus, vendor, product and version in hex")
      }
      var values: [UInt16] = []
      for word in words {
        guard let value = UInt16(word, radix: 16) else {
          throw EvemuError(line: number, "I: \"\(clip(word))\" is not a 16-bit hex number")
        }
        values.append(value)
      }
      (device.bus, device.vendor, device.product, device.version) =
        (values[0], values[1], values[2], values[3])
    }

    func hexBytes(_ words: [Substring], number: Int, what: String) throws(EvemuError) -> [UInt8] {
      var bytes: [UInt8] = []
      for word in words {
        guard word.count <= 2, let byte = UInt8(word, radix: 16) else {
          throw EvemuError(line: number, "\(what) \"\(clip(word))\" is not a hex byte")
        }
        bytes.append(byte)
      }
      return bytes
    }

    mutating func mask(_ words: [Substring], number: Int) throws(EvemuError) {
      guard let first = words.first, let type = UInt16(first, radix: 16),
        type <= InputEventCode.evMax
      else {
        throw EvemuError(line: number, "B: starts with an event type in hex (00 to 1f)")
      }
      let bytes = try hexBytes(Array(words.dropFirst()), number: number, what: "B:")
      let offset = maskOffsets[type, default: 0]
      guard offset + bytes.count <= 128 else {
        throw EvemuError(line: number, "B: too many bitmask bytes for type \(first)")
      }
      for (index, byte) in bytes.enumerated() where byte != 0 {
        for bit in 0..<8 where byte & (1 << bit) != 0 {
          device.codes[type, default: []].insert(UInt16((offset + index) * 8 + bit))
        }
      }
      maskOffsets[type] = offset + bytes.count
    }

    mutating func axis(_ words: [Substring], number: Int) throws(EvemuError) {
      guard words.count == 5 || words.count == 6, let code = UInt16(words[0], radix: 16),
        code <= 0x3f
      else {
        throw EvemuError(
          line: number,
          "A: takes an axis code in hex (00 to 3f), min, max, fuzz, flat[, resolution]")
      }
      var values: [Int32] = []
      for word in words.dropFirst() {
        guard let value = Int32(word) else {
          throw EvemuError(line: number, "A: \"\(clip(word))\" is not a 32-bit number")
        }
        values.append(value)
      }
      guard values[0] <= values[1] else {
        throw EvemuError(
          line: number, "A: the minimum \(values[0]) is above the maximum \(values[1])")
      }
      device.axes[code] = AxisRange(
        minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3],
        resolution: values.count == 5 ? values[4] : 0)
    }

    func pair(_ words: [Substring], number: Int, what: String) throws(EvemuError) {
      guard words.count == 2, UInt16(words[0], radix: 16) != nil, Int32(words[1]) != nil else {
        throw EvemuError(line: number, "\(what) takes a code in hex and a state")
      }
    }

    mutating func event(_ words: [Substring], number: Int) throws(EvemuError) {
      guard words.count == 4 else {
        throw EvemuError(line: number, "E: takes a time, a type, a code and a value")
      }
      let time = try timestamp(words[0], number: number)
      guard let type = UInt16(words[1], radix: 16), type <= InputEventCode.evMax else {
        throw EvemuError(line: number, "E: \"\(clip(words[1]))\" is not an event type (00 to 1f)")
      }
      guard let code = UInt16(words[2], radix: 16), code <= 0x2ff else {
        throw EvemuError(line: number, "E: \"\(clip(words[2]))\" is not an event code (0 to 2ff)")
      }
      guard let value = Int32(words[3]) else {
        throw EvemuError(line: number, "E: \"\(clip(words[3]))\" is not a 32-bit value")
      }
      if let last = events.last, time < last.time {
        throw EvemuError(line: number, "E: time goes backwards (\(words[0]))")
      }
      events.append(InputEvent(time: time, type: type, code: code, value: value))
    }

    /// `seconds.microseconds`, as evemu prints it (six digits after the point).
    func timestamp(_ word: Substring, number: Int) throws(EvemuError) -> UInt64 {
      let parts = word.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count == 2, let seconds = UInt64(parts[0]), seconds < 1 << 32,
        (1...6).contains(parts[1].count), parts[1].allSatisfy(\.isASCII),
        let fraction = UInt64(parts[1])
      else {
        throw EvemuError(line: number, "E: \"\(clip(word))\" is not a time like 3.640121")
      }
      var micros = fraction
      for _ in parts[1].count..<6 { micros *= 10 }
      return seconds * 1_000_000_000 + micros * 1_000
    }
  }
}

/// Shortens a quoted piece of a bad line for an error message.
/// An `evemu-record` stream read as it arrives (a FIFO, a pipe from `ssh host evemu-record`):
/// one line at a time, each refused as ``EvemuRecording/parse(_:)`` would refuse it.
public struct EvemuStreamParser: Sendable {
  private var parser = EvemuRecording.Parser()
  private var number = 0

  /// A parser before the first line.
  public init() {}

  /// The device as described so far (the descriptor lines come before the events).
  public var device: DeviceDescription { parser.device }

  /// Whether the descriptor lines are over: an event came, or the comment `evemu-record`
  /// prints before waiting for the first one (`#      Waiting for events      #`).
  public private(set) var headerEnded = false

  /// Takes one line (without its newline); returns its event, if it is an `E:` line.
  public mutating func take(_ line: Substring) throws(EvemuError) -> InputEvent? {
    number += 1
    if line.hasPrefix("#"), line.contains("Waiting for events") { headerEnded = true }
    let count = parser.events.count
    try parser.take(line, number: number)
    guard parser.events.count > count else { return nil }
    headerEnded = true
    // Keep one: the stream's history is not needed, only "time goes backwards" checks.
    let event = parser.events[parser.events.count - 1]
    parser.events = [event]
    return event
  }
}

private func clip(_ text: Substring) -> String {
  let printable = text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "?" : String($0) }
    .joined()
  return printable.count > 40 ? String(printable.prefix(40)) + "…" : printable
}

/// A malformed recording: which line and what is wrong with it.
public struct EvemuError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The 1-based line number (0: the file as a whole).
  public var line: Int
  /// What is wrong.
  public var message: String

  /// An error at `line`.
  public init(line: Int, _ message: String) {
    self.line = line
    self.message = message
  }

  /// `line 12: E: takes a time, a type, a code and a value`.
  public var description: String { line > 0 ? "line \(line): \(message)" : message }
}
