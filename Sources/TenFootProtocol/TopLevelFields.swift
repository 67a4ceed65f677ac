/// Reads an encoded message's top-level fields without decoding it, skipping their payloads:
/// how the broker reads an envelope's `seq` or tells a part from a whole message before (or
/// instead of) decoding a large frame. Written by hand because SwiftProtobuf decodes a whole
/// message and has no public way to skip a field's payload.
public enum TopLevelFields {
  /// Visits each top-level field in order (its number, wire type and, for a varint, its
  /// value) until `visit` returns a value, which is returned. Nil when the frame ends, a
  /// field does not parse (a field number of 0 included) or has a fixed-width wire type, or the next field starts at or
  /// after `limit` bytes.
  public static func first<T>(
    in frame: [UInt8], before limit: Int = .max,
    _ visit: (_ number: UInt64, _ wireType: UInt64, _ varint: UInt64?) -> T?
  ) -> T? {
    frame.withUnsafeBufferPointer { buffer -> T? in
      var reader = WireReader(buffer)
      while reader.offset < min(buffer.count, limit), let tag = reader.tag() {
        switch tag.wireType {
        case 0:
          guard let value = reader.varint() else { return nil }
          if let found = visit(UInt64(tag.field), 0, value) { return found }
        case 2:
          if let found = visit(UInt64(tag.field), 2, nil) { return found }
          guard reader.payload() != nil else { return nil }
        default: return nil
        }
      }
      return nil
    }
  }
}
