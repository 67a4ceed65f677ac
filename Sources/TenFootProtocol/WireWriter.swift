import SwiftProtobuf

/// Protobuf's binary wire format written field by field into one growing byte buffer, for the
/// messages the broker encodes by hand on the press path (`PressMessages+Wire.swift`). The
/// caller keeps a writer and `reset()`s it per message, so a reply or publication reuses one
/// buffer instead of allocating its bytes.
///
/// Each field checks the buffer once (unique and large enough for the field's longest
/// encoding) and then stores through a pointer, and a string's UTF-8 is copied in one move:
/// appending to an array byte by byte checked uniqueness and capacity for every byte, about a
/// third of the broker's instructions for writing a press's delta.
///
/// A nested message is written in place behind a one-byte length placeholder that is widened
/// afterwards when the message reaches 128 bytes (a move of its bytes), instead of sizing it
/// first: the press path's nested messages are short, and sizing each one before writing it is
/// what makes SwiftProtobuf's encoding cost a pass per level of nesting.
///
/// Each method writes the field it names unconditionally: whether a field holding its default
/// is omitted is the caller's decision, as in SwiftProtobuf's generated `traverse`.
public struct WireWriter: Sendable {
  /// The buffer, shared by copies of a writer until one of them writes (copy on write: a copy
  /// never sees the other's later bytes).
  private var storage: Storage
  /// How many bytes of `storage` have been written since the last `reset()`.
  public private(set) var count = 0

  /// An empty writer whose buffer holds `capacity` bytes before it grows.
  public init(capacity: Int = 512) {
    storage = Storage(capacity: max(capacity, 16))
  }

  /// What has been written since the last `reset()`, copied into an array (a sender that only
  /// reads them uses `withUnsafeBytes`).
  public var bytes: [UInt8] {
    Array(UnsafeBufferPointer(start: storage.base, count: count))
  }

  /// Calls `body` with what has been written since the last `reset()`, without copying it.
  public func withUnsafeBytes<R, E: Error>(
    _ body: (UnsafeRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    defer { withExtendedLifetime(storage) {} }
    return try body(UnsafeRawBufferPointer(start: storage.base, count: count))
  }

  /// Empties the buffer, keeping its storage for the next message.
  public mutating func reset() {
    count = 0
  }

  /// Makes room for `extra` more bytes in a buffer this writer alone holds, and returns where
  /// the next byte goes: the one check a field makes before storing its bytes.
  @inline(__always)
  private mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
    if _slowPath(!isKnownUniquelyReferenced(&storage) || storage.capacity - count < extra) {
      grow(extra)
    }
    return storage.base + count
  }

  /// Replaces the buffer with one this writer alone holds, with room for `extra` more bytes.
  @inline(never)
  private mutating func grow(_ extra: Int) {
    var capacity = storage.capacity
    while capacity - count < extra { capacity *= 2 }
    let copy = Storage(capacity: capacity)
    copy.base.update(from: storage.base, count: count)
    storage = copy
  }

  /// Stores `value` as a varint at `at`; returns the address after it.
  @inline(__always)
  private static func store(varint value: UInt64, at: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
  {
    var next = at
    var rest = value
    while rest >= 0x80 {
      next.pointee = UInt8(truncatingIfNeeded: rest) | 0x80
      next += 1
      rest >>= 7
    }
    next.pointee = UInt8(rest)
    return next + 1
  }

  /// A field's tag (its number and wire type: 0 varint, 1 fixed 64-bit, 2 length-delimited),
  /// then a varint: the longest is 10 bytes each for the field numbers the writer is given.
  @inline(__always)
  private mutating func tagged(_ field: Int, _ wireType: Int, _ value: UInt64, extra: Int = 0) {
    let start = reserve(20 + extra)
    let afterTag = Self.store(varint: UInt64(field << 3 | wireType), at: start)
    let end = Self.store(varint: value, at: afterTag)
    count += end - start
  }

  /// Copies `length` bytes from `source` to the end; room was reserved for them.
  @inline(__always)
  private mutating func copy(_ source: UnsafeRawPointer?, _ length: Int) {
    guard length > 0, let source else { return }
    UnsafeMutableRawPointer(storage.base + count).copyMemory(from: source, byteCount: length)
    count += length
  }

  /// A `uint64`, `uint32` or `bool` field (wire type 0).
  public mutating func uint64(_ field: Int, _ value: UInt64) {
    tagged(field, 0, value)
  }

  /// A `bool` field: a one-byte varint.
  public mutating func bool(_ field: Int, _ value: Bool) {
    tagged(field, 0, value ? 1 : 0)
  }

  /// An enum field: its raw value as protobuf writes an `int32`, sign-extended to 64 bits
  /// (a negative value takes 10 bytes).
  public mutating func `enum`<E: SwiftProtobuf.Enum>(_ field: Int, _ value: E) {
    uint64(field, UInt64(bitPattern: Int64(value.rawValue)))
  }

  /// A `double` field: 8 bytes, little-endian.
  public mutating func double(_ field: Int, _ value: Double) {
    let start = reserve(18)
    let afterTag = Self.store(varint: UInt64(field << 3 | 1), at: start)
    UnsafeMutableRawPointer(afterTag).storeBytes(
      of: value.bitPattern.littleEndian, as: UInt64.self)
    count += afterTag + 8 - start
  }

  /// A `string` field: its UTF-8 length and bytes.
  public mutating func string(_ field: Int, _ value: String) {
    let length = value.utf8.count
    tagged(field, 2, UInt64(length), extra: length)
    append(utf8: value, length: length)
  }

  /// A length-delimited field's tag and `length`, with room for the `length` bytes that the
  /// caller appends next (`append(utf8:length:)`, `append(_:_:)`).
  mutating func lengthDelimited(_ field: Int, length: Int) {
    tagged(field, 2, UInt64(length), extra: length)
  }

  /// Appends a string's UTF-8 bytes (`length` of them) into room reserved for them.
  @inline(__always)
  mutating func append(utf8 value: String, length: Int) {
    let copied: Void? = value.utf8.withContiguousStorageIfAvailable { utf8 in
      copy(utf8.baseAddress, length)
    }
    if copied == nil {
      // A bridged string without contiguous UTF-8 (not made on Linux): byte by byte.
      var next = storage.base + count
      for byte in value.utf8 {
        next.pointee = byte
        next += 1
      }
      count += length
    }
  }

  /// Appends two bytes into room reserved for them.
  @inline(__always)
  mutating func append(_ first: UInt8, _ second: UInt8) {
    storage.base[count] = first
    storage.base[count + 1] = second
    count += 2
  }

  /// A length-delimited field holding bytes encoded elsewhere (a message SwiftProtobuf
  /// serialized).
  public mutating func encoded(_ field: Int, _ message: [UInt8]) {
    tagged(field, 2, UInt64(message.count), extra: message.count)
    message.withUnsafeBytes { copy($0.baseAddress, $0.count) }
  }

  /// A message field: its tag, then its length and what `write` writes.
  @inline(__always)
  public mutating func message(_ field: Int, _ write: (inout WireWriter) -> Void) {
    // The tag, then the length's placeholder: one byte while the message is under 128 bytes.
    tagged(field, 2, 0)
    let start = count - 1
    write(&self)
    closeLength(at: start)
  }

  /// Unknown fields a decoded message kept, written after its known fields as SwiftProtobuf
  /// writes them.
  public mutating func unknown(_ fields: UnknownStorage) {
    let data = fields.data
    guard !data.isEmpty else { return }
    _ = reserve(data.count)
    data.withUnsafeBytes { copy($0.baseAddress, $0.count) }
  }

  /// Writes the length of the message that follows the placeholder byte at `start`, widening
  /// the placeholder (moving the message's bytes up) when the length needs more than one byte.
  @inline(__always)
  private mutating func closeLength(at start: Int) {
    let length = count - start - 1
    if _fastPath(length < 0x80) {
      // Unique again (`write` may have copied the writer), then the length in place.
      _ = reserve(0)
      storage.base[start] = UInt8(length)
      return
    }
    widenLength(at: start, length)
  }

  /// `closeLength` for a message of 128 bytes or more.
  @inline(never)
  private mutating func widenLength(at start: Int, _ length: Int) {
    var width = 1
    while UInt64(length) >> (7 * width) != 0 { width += 1 }
    let base = reserve(width - 1) - count
    // Overlapping ranges: update(from:) on overlapping memory is not allowed; moveUpdate is
    // for initialized values, so the bytes move as raw memory (memmove).
    UnsafeMutableRawPointer(base + start + width).copyMemory(
      from: base + start + 1, byteCount: length)
    _ = Self.store(varint: UInt64(length), at: base + start)
    count += width - 1
  }
}

extension WireWriter {
  /// A writer's bytes: `capacity` of them allocated, freed with it.
  ///
  /// `@unchecked Sendable`: a `WireWriter` writes to its storage only when it holds the sole
  /// reference (`reserve`), so storage shared between copies, or sent to another thread, is
  /// only ever read.
  private final class Storage: @unchecked Sendable {
    /// The first byte.
    let base: UnsafeMutablePointer<UInt8>
    /// How many bytes `base` holds.
    let capacity: Int

    /// Allocates `capacity` bytes.
    init(capacity: Int) {
      self.capacity = capacity
      base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }
  }
}
