/// Reads an encoded message's top-level fields without decoding it, skipping their payloads:
/// how the broker reads an envelope's `seq` or tells a part from a whole message before (or
/// instead of) decoding a large frame. Written by hand because SwiftProtobuf decodes a whole
/// message and has no public way to skip a field's payload.
public enum TopLevelFields {
  /// Visits each top-level field in order (its number, wire type and, for a varint, its
  /// value) until `visit` returns a value, which is returned. Nil when the frame ends, a
  /// field does not parse or has a fixed-width wire type, or the next field starts at or
  /// after `limit` bytes.
  @inlinable
  public static func first<T>(
    in frame: [UInt8], before limit: Int = .max,
    _ visit: (_ number: UInt64, _ wireType: UInt64, _ varint: UInt64?) -> T?
  ) -> T? {
    var offset = 0
    func varint() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while offset < frame.count, shift < 64 {
        let byte = frame[offset]
        offset += 1
        value |= UInt64(byte & 0x7f) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
      return nil
    }
    while offset < min(frame.count, limit), let tag = varint() {
      let (number, wireType) = (tag >> 3, tag & 7)
      switch wireType {
      case 0:
        guard let value = varint() else { return nil }
        if let found = visit(number, wireType, value) { return found }
      case 2:
        if let found = visit(number, wireType, nil) { return found }
        guard let length = varint(), length <= UInt64(frame.count - offset) else { return nil }
        offset += Int(length)
      default: return nil
      }
    }
    return nil
  }
}
