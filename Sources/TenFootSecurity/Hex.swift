/// Lowercase hexadecimal text for bytes: peer identities in logs and session keys, the short
/// ids of public keys, the web renderer's access key. Imports nothing, so any module can
/// take it.
public enum Hex {
  /// `bytes` as lowercase hex, two digits a byte. O(n), one allocation (the string itself).
  /// Inlinable, so each caller gets it specialized for its collection: unspecialized, every
  /// byte goes through the `Collection` witnesses, and the broker encodes a remote's identity
  /// on each of its presses.
  @inlinable
  public static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
      var index = 0
      for byte in bytes {
        buffer[index] = digit(byte >> 4)
        buffer[index + 1] = digit(byte & 0x0F)
        index += 2
      }
      return index
    }
  }

  /// The lowercase hex digit of a nibble (0...15).
  @inlinable
  static func digit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
  }
}
