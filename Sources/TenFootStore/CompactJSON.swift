/// The JSON text of the store's list and map columns, written by hand: `JSONEncoder` went
/// through `Encodable` boxing for every column of every committed row, a measurable part of a
/// commit. The text is the same JSON (`["a","b"]`, `{"k":"v"}`, keys sorted so equal values
/// give equal bytes) and is read back with `JSONDecoder`, so databases written before and
/// after read alike.
///
/// Built byte by byte (UTF-8), never by slicing `String`s: a slice of a string rounds to
/// character boundaries, and a quote followed by a combining mark is one character.
public enum CompactJSON {
  /// `["a","b"]`.
  static func array(_ values: [String]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
    append(values, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// `{"k":"v"}`, keys in ascending order.
  static func object(_ values: [String: String]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(values.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
    append(values, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// A whole session record as one JSON object, as `JSONEncoder` with sorted keys writes
  /// `SessionRow` (a nil `focused` is left out), read back with `JSONDecoder`: a zone's
  /// PostgreSQL store keeps each record in a `jsonb` column, written on every commit, where
  /// `JSONEncoder` was a visible share of an active zone broker's CPU.
  public static func row(_ row: SessionRow) -> String {
    var out: [UInt8] = [UInt8(ascii: "{")]
    out.reserveCapacity(128)
    if let focused = row.focused {
      key("focused", to: &out)
      append(focused, to: &out)
      out.append(UInt8(ascii: ","))
    }
    key("remembered", to: &out)
    append(row.remembered, to: &out)
    out.append(UInt8(ascii: ","))
    key("rememberedOwn", to: &out)
    append(row.rememberedOwn, to: &out)
    out.append(UInt8(ascii: ","))
    key("screenID", to: &out)
    append(row.screenID, to: &out)
    out.append(UInt8(ascii: ","))
    key("selected", to: &out)
    append(row.selected, to: &out)
    out.append(UInt8(ascii: ","))
    key("text", to: &out)
    append(row.text, to: &out)
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }

  /// `"name":`.
  private static func key(_ name: String, to out: inout [UInt8]) {
    append(name, to: &out)
    out.append(UInt8(ascii: ":"))
  }

  /// `values` as a JSON array of strings.
  static func append(_ values: [String], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (index, value) in values.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      append(value, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }

  /// `values` as a JSON object of strings, keys in ascending order.
  static func append(_ values: [String: String], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "{"))
    for (index, entry) in values.sorted(by: { $0.key < $1.key }).enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      key(entry.key, to: &out)
      append(entry.value, to: &out)
    }
    out.append(UInt8(ascii: "}"))
  }

  /// `value` as a JSON string: quotes, backslashes and control characters escaped, every
  /// other byte of its UTF-8 as it is.
  static func append(_ value: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
      case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case ..<0x20:
        out += Array("\\u00".utf8)
        out += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  private static let hex = Array("0123456789abcdef".utf8)
}
