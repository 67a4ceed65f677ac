/// Turns the bytes a raw-mode terminal sends into key presses, incrementally: bytes may be
/// fed in any split (a sequence cut between two reads is completed by the next feed).
///
/// Recognised: arrows in CSI (`ESC[A`, also with modifiers such as `ESC[1;5A`) and SS3
/// (`ESCOA`) form; Return as CR or LF; Tab; Shift-Tab (`ESC[Z`); Backspace as 0x7F or 0x08;
/// Space; Ctrl-C (0x03); Home, End, Page Up/Down and Delete; xterm SGR mouse reports
/// (`ESC[<b;x;yM` and `…m`); printable characters, including multi-byte UTF-8. Other control bytes, unknown escape sequences and malformed UTF-8 are
/// dropped without affecting what follows.
///
/// A lone ESC cannot be told from the start of a sequence until more bytes come or time
/// passes. The decoder keeps it pending (``hasPendingEscape``); it becomes ``KeyPress/escape``
/// when a byte other than `[` or `O` follows, or when the caller, after a short quiet time
/// (about 30 ms) with no input, calls ``flush()``. The decoder itself never reads a clock.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []
  /// Set after an over-long escape sequence: its remaining parameter and intermediate bytes,
  /// and its final byte, are dropped as they arrive.
  private var discardingSequence = false
  /// Longest escape sequence kept while waiting for its final byte; longer ones are dropped.
  static let maximumSequenceLength = 32

  /// A decoder with nothing pending.
  public init() {}

  /// Whether an ESC (possibly with the start of a sequence) waits for more bytes or ``flush()``.
  public var hasPendingEscape: Bool { pending.first == 0x1B }

  /// Decodes `bytes` after whatever was pending and returns the completed key presses.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [KeyPress] {
    pending.append(contentsOf: bytes)
    return decode(final: false)
  }

  /// Resolves a pending ESC as Escape after a quiet time: the ESC becomes ``KeyPress/escape``
  /// and the bytes after it (the start of a sequence that never completed) are decoded as
  /// ordinary input. An incomplete UTF-8 character stays pending.
  public mutating func flush() -> [KeyPress] {
    decode(final: true)
  }

  private enum Step {
    case key(KeyPress, consumed: Int)
    case skip(Int)
    /// An escape sequence longer than the limit: drop it, and the rest of it as it comes.
    case overlong(Int)
    case incomplete
  }

  private mutating func decode(final: Bool) -> [KeyPress] {
    var keys: [KeyPress] = []
    var start = 0
    while start < pending.count {
      if discardingSequence {
        let byte = pending[start]
        if (0x20...0x3F).contains(byte) {
          start += 1
          continue
        }
        discardingSequence = false
        if (0x40...0x7E).contains(byte) {
          start += 1
          continue
        }
      }
      let step = Self.step(pending[start...])
      switch step {
      case .overlong(let consumed):
        discardingSequence = true
        start += consumed
      case .key(let key, let consumed):
        keys.append(key)
        start += consumed
      case .skip(let consumed):
        start += consumed
      case .incomplete:
        if final && pending[start] == 0x1B {
          keys.append(.escape)
          start += 1
        } else {
          pending.removeFirst(start)
          return keys
        }
      }
    }
    pending.removeAll(keepingCapacity: true)
    return keys
  }

  /// Decodes the key at the start of `bytes`.
  private static func step(_ bytes: ArraySlice<UInt8>) -> Step {
    let first = bytes[bytes.startIndex]
    switch first {
    case 0x1B: return escape(bytes)
    case 0x0D, 0x0A: return .key(.enter, consumed: 1)
    case 0x09: return .key(.tab, consumed: 1)
    case 0x7F, 0x08: return .key(.backspace, consumed: 1)
    case 0x03: return .key(.ctrlC, consumed: 1)
    case 0x20: return .key(.space, consumed: 1)
    case 0x21...0x7E: return .key(.character(Character(Unicode.Scalar(first))), consumed: 1)
    case 0x00...0x1F: return .skip(1)
    default: return utf8(bytes)
    }
  }

  private static func escape(_ bytes: ArraySlice<UInt8>) -> Step {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return .incomplete }
    switch bytes[start + 1] {
    case UInt8(ascii: "["): return csi(bytes)
    case UInt8(ascii: "O"):
      guard bytes.count >= 3 else { return .incomplete }
      let key: KeyPress? =
        switch bytes[start + 2] {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
      return key.map { .key($0, consumed: 3) } ?? .skip(3)
    default:
      // ESC then anything else (another ESC, a letter: Alt+letter): the ESC was a lone Escape;
      // what follows is decoded on its own.
      return .key(.escape, consumed: 1)
    }
  }

  /// `ESC [ parameters intermediates final`, parameters 0x30–0x3F, intermediates 0x20–0x2F,
  /// final 0x40–0x7E (ECMA-48).
  private static func csi(_ bytes: ArraySlice<UInt8>) -> Step {
    var index = bytes.startIndex + 2
    var parameters: [UInt8] = []
    while index < bytes.endIndex {
      let byte = bytes[index]
      let length = index - bytes.startIndex + 1
      switch byte {
      case 0x30...0x3F:
        parameters.append(byte)
      case 0x20...0x2F:
        break
      case 0x40...0x7E:
        return key(final: byte, parameters: parameters).map { .key($0, consumed: length) }
          ?? .skip(length)
      default:
        // Not a CSI byte: drop what came before it and decode it afresh.
        return .skip(length - 1)
      }
      if length >= maximumSequenceLength { return .overlong(length) }
      index += 1
    }
    return .incomplete
  }

  private static func key(final: UInt8, parameters: [UInt8]) -> KeyPress? {
    if parameters.first == UInt8(ascii: "<") {
      guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return nil }
      return MouseReport(
        sgr: String(decoding: parameters.dropFirst(), as: UTF8.self),
        released: final == UInt8(ascii: "m")
      ).map { .mouse($0) }
    }
    let first = String(decoding: parameters.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self)
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "Z"): return .shiftTab
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "~"):
      switch first {
      case "1", "7": return .home
      case "4", "8": return .end
      case "3": return .delete
      case "5": return .pageUp
      case "6": return .pageDown
      default: return nil
      }
    default: return nil
    }
  }

  /// A multi-byte UTF-8 character; malformed bytes are skipped one at a time.
  private static func utf8(_ bytes: ArraySlice<UInt8>) -> Step {
    let first = bytes[bytes.startIndex]
    let length: Int
    switch first {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return .skip(1)  // a continuation byte or an invalid lead byte
    }
    let available = min(length, bytes.count)
    for offset in 1..<available where bytes[bytes.startIndex + offset] & 0xC0 != 0x80 {
      return .skip(1)
    }
    guard bytes.count >= length else { return .incomplete }
    let encoded = bytes[bytes.startIndex..<(bytes.startIndex + length)]
    var iterator = encoded.makeIterator()
    var decoder = UTF8()
    guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return .skip(1) }
    return .key(.character(Character(scalar)), consumed: length)
  }
}
