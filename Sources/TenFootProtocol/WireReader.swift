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
  /// senders are, skips the generic validation (about a thousand instructions a string).
  func string(in range: Range<Int>) -> String? {
    let bytes = UnsafeBufferPointer(rebasing: buffer[range])
    if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    return String(validating: bytes, as: UTF8.self)
  }

  /// A reader of a nested message's bytes.
  mutating func nested() -> WireReader? {
    guard let range = payload() else { return nil }
    return WireReader(buffer, from: range.lowerBound, to: range.upperBound)
  }
}
