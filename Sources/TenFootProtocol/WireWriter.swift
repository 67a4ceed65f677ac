import SwiftProtobuf

/// Protobuf's binary wire format written field by field into one growing byte buffer, for the
/// messages the broker encodes by hand on the press path (`PressMessages+Wire.swift`). The
/// caller keeps a writer and `reset()`s it per message, so a reply or publication reuses one
/// buffer instead of allocating its bytes.
///
/// A nested message is written in place behind a one-byte length placeholder that is widened
/// afterwards when the message reaches 128 bytes (a move of its bytes), instead of sizing it
/// first: the press path's nested messages are short, and sizing each one before writing it is
/// what makes SwiftProtobuf's encoding cost a pass per level of nesting.
///
/// Each method writes the field it names unconditionally: whether a field holding its default
/// is omitted is the caller's decision, as in SwiftProtobuf's generated `traverse`.
public struct WireWriter: Sendable {
  /// What has been written since the last `reset()`.
  public private(set) var bytes: [UInt8] = []

  /// An empty writer whose buffer holds `capacity` bytes before it grows.
  public init(capacity: Int = 512) {
    bytes.reserveCapacity(capacity)
  }

  /// Empties the buffer, keeping its storage for the next message.
  public mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// A bare varint (no tag).
  @inline(__always)
  mutating func varint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  /// A field's tag: its number and wire type (0 varint, 1 fixed 64-bit, 2 length-delimited).
  @inline(__always)
  mutating func tag(_ field: Int, _ wireType: Int) {
    varint(UInt64(field << 3 | wireType))
  }

  /// A `uint64`, `uint32` or `bool` field (wire type 0).
  public mutating func uint64(_ field: Int, _ value: UInt64) {
    tag(field, 0)
    varint(value)
  }

  /// A `bool` field: a one-byte varint.
  public mutating func bool(_ field: Int, _ value: Bool) {
    tag(field, 0)
    bytes.append(value ? 1 : 0)
  }

  /// An enum field: its raw value as protobuf writes an `int32`, sign-extended to 64 bits
  /// (a negative value takes 10 bytes).
  public mutating func `enum`<E: SwiftProtobuf.Enum>(_ field: Int, _ value: E) {
    uint64(field, UInt64(bitPattern: Int64(value.rawValue)))
  }

  /// A `double` field: 8 bytes, little-endian.
  public mutating func double(_ field: Int, _ value: Double) {
    tag(field, 1)
    var bits = value.bitPattern
    for _ in 0..<8 {
      bytes.append(UInt8(truncatingIfNeeded: bits))
      bits >>= 8
    }
  }

  /// A `string` field: its UTF-8 length and bytes.
  public mutating func string(_ field: Int, _ value: String) {
    tag(field, 2)
    let utf8 = value.utf8
    varint(UInt64(utf8.count))
    bytes.append(contentsOf: utf8)
  }

  /// A length-delimited field holding bytes encoded elsewhere (a message SwiftProtobuf
  /// serialized).
  public mutating func encoded(_ field: Int, _ message: [UInt8]) {
    tag(field, 2)
    varint(UInt64(message.count))
    bytes.append(contentsOf: message)
  }

  /// A message field: its tag, then its length and what `write` writes.
  @inline(__always)
  public mutating func message(_ field: Int, _ write: (inout WireWriter) -> Void) {
    tag(field, 2)
    let start = bytes.count
    bytes.append(0)  // The length, one byte while the message is under 128 bytes.
    write(&self)
    closeLength(at: start)
  }

  /// Unknown fields a decoded message kept, written after its known fields as SwiftProtobuf
  /// writes them.
  public mutating func unknown(_ fields: UnknownStorage) {
    if !fields.data.isEmpty { bytes.append(contentsOf: fields.data) }
  }

  /// Writes the length of the message that follows the placeholder byte at `start`, widening
  /// the placeholder (moving the message's bytes up) when the length needs more than one byte.
  private mutating func closeLength(at start: Int) {
    let length = bytes.count - start - 1
    if length < 0x80 {
      bytes[start] = UInt8(length)
      return
    }
    var width = 1
    while UInt64(length) >> (7 * width) != 0 { width += 1 }
    bytes.append(contentsOf: repeatElement(0, count: width - 1))
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      // Overlapping ranges: copyMemory moves like memmove.
      (base + start + width).copyMemory(from: base + start + 1, byteCount: length)
      var rest = UInt64(length)
      for offset in 0..<width {
        buffer[start + offset] = UInt8(truncatingIfNeeded: rest) | (offset < width - 1 ? 0x80 : 0)
        rest >>= 7
      }
    }
  }
}
