import SwiftProtobuf

/// Reads protobuf's wire format from a buffer: tags, varints, strings and the bounds of
/// nested messages. Every read returns nil where the bytes do not hold what it reads.
struct WireReader {
  let buffer: UnsafeBufferPointer<UInt8>
  var offset: Int
  let end: Int

  init(_ buffer: UnsafeBufferPointer<UInt8>) {
    self.init(buffer, from: 0, to: buffer.count)
  }

  private init(_ buffer: UnsafeBufferPointer<UInt8>, from offset: Int, to end: Int) {
    self.buffer = buffer
    self.offset = offset
    self.end = end
  }

  var atEnd: Bool { offset >= end }

  /// A tag read: the field's number (1 and up) and its wire type.
  typealias Tag = (field: Int, wireType: Int)

  /// A varint of at most 10 bytes, read as SwiftProtobuf reads it (bits past 64 dropped).
  mutating func varint() -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while offset < end, shift < 64 {
      let byte = buffer[offset]
      offset += 1
      value |= UInt64(byte & 0x7f) &<< shift
      if byte < 0x80 { return value }
      shift += 7
    }
    return nil
  }

  /// The next field's tag.
  mutating func tag() -> Tag? {
    guard let tag = varint(), tag >> 3 > 0, tag >> 3 < 1 << 29 else { return nil }
    return (Int(tag >> 3), Int(tag & 7))
  }

  /// The bounds of a length-delimited field's payload, read past.
  mutating func payload() -> Range<Int>? {
    guard let length = varint(), length <= UInt64(end - offset) else { return nil }
    let range = offset..<offset + Int(length)
    offset = range.upperBound
    return range
  }

  /// A string field's value, if it is valid UTF-8.
  mutating func string() -> String? {
    guard let range = payload() else { return nil }
    return string(in: range)
  }

  /// The string the bytes in `range` hold, if they are valid UTF-8. ASCII, what ids and
  /// senders are, skips the generic validation (about a thousand instructions a string); the
  /// check ORs the bytes together in a plain loop, which the compiler vectorises (a
  /// `contains(where:)` called its closure once a byte).
  func string(in range: Range<Int>) -> String? {
    let bytes = UnsafeBufferPointer(rebasing: buffer[range])
    var high: UInt8 = 0
    for byte in bytes { high |= byte }
    if high < 0x80 { return String(decoding: bytes, as: UTF8.self) }
    return String(validating: bytes, as: UTF8.self)
  }

  /// Reads past a string field; false if it is not valid UTF-8. Makes no string for ASCII.
  mutating func skipString() -> Bool {
    guard let range = payload() else { return false }
    var high: UInt8 = 0
    for byte in UnsafeBufferPointer(rebasing: buffer[range]) { high |= byte }
    return high < 0x80 || string(in: range) != nil
  }

  /// A `double` field's 8 little-endian bytes.
  mutating func double() -> Double? {
    guard end - offset >= 8 else { return nil }
    var bits: UInt64 = 0
    for index in (0..<8).reversed() { bits = bits << 8 | UInt64(buffer[offset + index]) }
    offset += 8
    return Double(bitPattern: bits)
  }

  /// An enum field's value, when it is one SwiftProtobuf reads the same way (at most
  /// `Int32.max`: larger varints are sign-wrapped `int32`s).
  mutating func enumValue<E: SwiftProtobuf.Enum>(_ type: E.Type) -> E? {
    guard let value = varint(), value <= Int32.max else { return nil }
    return E(rawValue: Int(value))
  }

  /// A map entry of two strings: its key (field 1) then its value (field 2), both present.
  mutating func stringPair() -> (String, String)? {
    guard let (keyField, keyType) = tag(), keyField == 1, keyType == 2, let key = string(),
      let (valueField, valueType) = tag(), valueField == 2, valueType == 2,
      let value = string(), atEnd
    else { return nil }
    return (key, value)
  }

  /// A reader of a nested message's bytes.
  mutating func nested() -> WireReader? {
    guard let range = payload() else { return nil }
    return WireReader(buffer, from: range.lowerBound, to: range.upperBound)
  }

  /// The length-delimited message at the cursor, read by `read` (nil if either fails).
  @inline(__always)
  mutating func nested<Message>(_ read: (inout WireReader) -> Message?) -> Message? {
    guard var nested = nested() else { return nil }
    return read(&nested)
  }

  /// A message whose fields are all doubles (wire type 1) in increasing order, each handed to
  /// `set` by field number; false on any other shape or a field `set` refuses.
  mutating func doubles(_ set: (Int, Double) -> Bool) -> Bool {
    var order = FieldOrder()
    while !atEnd {
      guard let (field, wireType) = tag(), order.accepts(field), wireType == 1,
        let value = double(), set(field, value)
      else { return false }
    }
    return true
  }
}

/// The order fields must come in for a hand-written decoder to read a message: increasing
/// field numbers, a repeated field's entries one after another.
struct FieldOrder {
  private var last = 0

  /// Whether `field` may come next (then it is the last field seen).
  mutating func accepts(_ field: Int, repeated: Bool = false) -> Bool {
    guard field > last || (repeated && field == last) else { return false }
    last = field
    return true
  }
}
