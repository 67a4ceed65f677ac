/// Lowercase hexadecimal text for bytes: peer identities in logs and session keys, the short
/// ids of public keys, the web renderer's access key. Imports nothing, so any module can
/// take it.
public enum Hex {
  private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

  /// `bytes` as lowercase hex, two digits a byte. O(n), one allocation (the string itself).
  public static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
      var index = 0
      for byte in bytes {
        buffer[index] = digits[Int(byte >> 4)]
        buffer[index + 1] = digits[Int(byte & 0x0F)]
        index += 2
      }
      return index
    }
  }
}
