/// Compact JSON written by hand, for the messages that go out on every frame (a developer's
/// page's frame: `WebMessages.appFrame`): `JSONEncoder`'s boxing and key sorting cost
/// more than the frame's whole trip through the screen (docs/performance.md, the page path). Object keys are written in the order given (callers
/// give them sorted, as `WebMessages.encode` sorts them).
struct JSONText {
  /// The JSON so far.
  private(set) var text = ""
  private var needsComma = [false]

  /// A writer with nothing written yet.
  init() { text.reserveCapacity(512) }

  /// Writes `key` in the open object, then its value with `value`.
  mutating func key(_ key: String, _ value: (inout JSONText) throws -> Void) rethrows {
    separate()
    Self.append(string: key, to: &text)
    text += ":"
    needsComma.append(false)
    try value(&self)
    needsComma.removeLast()
  }

  /// An object; `body` writes its keys.
  mutating func object(_ body: (inout JSONText) throws -> Void) rethrows {
    try nested("{", "}", body)
  }

  /// An array; `body` writes its elements.
  mutating func array(_ body: (inout JSONText) throws -> Void) rethrows {
    try nested("[", "]", body)
  }

  /// `body`'s members between `open` and `close`, separated by commas.
  private mutating func nested(
    _ open: String, _ close: String, _ body: (inout JSONText) throws -> Void
  ) rethrows {
    separate()
    text += open
    needsComma.append(false)
    try body(&self)
    needsComma.removeLast()
    text += close
  }

  /// A string value.
  mutating func string(_ value: String) {
    separate()
    Self.append(string: value, to: &text)
  }

  /// A number: an integral value without a fraction (`12`, as `JSONEncoder` writes it), else
  /// the shortest form that reads back the same. Not finite: an error, as `JSONEncoder`'s.
  mutating func number(_ value: Double) throws {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: [], debugDescription: "a number that is not finite"))
    }
    separate()
    if value == value.rounded(), abs(value) < 1e15 {
      text += String(Int64(value))
    } else {
      text += "\(value)"
    }
  }

  /// An unsigned integer.
  mutating func number(_ value: UInt64) {
    separate()
    text += String(value)
  }

  /// `true` or `false`.
  mutating func bool(_ value: Bool) {
    separate()
    text += value ? "true" : "false"
  }

  /// A comma before every value but the first in its object or array (a key's value follows
  /// its colon).
  private mutating func separate() {
    if needsComma[needsComma.count - 1] { text += "," }
    needsComma[needsComma.count - 1] = true
  }

  /// `value` quoted: `"` and `\` escaped, control characters as `\n`, `\t`… or `\u00XX`;
  /// everything else (slashes and non-ASCII text included) as it is.
  static func append(string value: String, to text: inout String) {
    text += "\""
    // Most strings (ids, titles, state names) need no escape: appended whole, after one pass
    // over their bytes, rather than scalar by scalar through the generic slice append below.
    if !value.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) {
      text += value
      text += "\""
      return
    }
    var plain = value.unicodeScalars.startIndex
    let scalars = value.unicodeScalars
    for index in scalars.indices {
      let scalar = scalars[index]
      let escaped: String
      switch scalar {
      case "\"": escaped = "\\\""
      case "\\": escaped = "\\\\"
      case "\n": escaped = "\\n"
      case "\r": escaped = "\\r"
      case "\t": escaped = "\\t"
      case "\u{8}": escaped = "\\b"
      case "\u{C}": escaped = "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        escaped = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: continue
      }
      text.unicodeScalars.append(contentsOf: scalars[plain..<index])
      text += escaped
      plain = scalars.index(after: index)
    }
    text.unicodeScalars.append(contentsOf: scalars[plain...])
    text += "\""
  }
}
