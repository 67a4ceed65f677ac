import Foundation
import ZeroMQ

/// A CURVE key pair kept in a private file (mode 0600): created on first use, then reused, so
/// a program's public key is stable across restarts.
///
/// Format (versioned JSON): `{"version":1,"publicKey":"<Z85>","secretKey":"<Z85>"}`.
public enum KeyFile {
  struct Contents: Codable {
    var version: Int
    var publicKey: String
    var secretKey: String
  }

  /// The key pair stored at `path`, generated and written first if the file does not exist.
  /// A file that others can read is refused: the secret key would no longer be secret.
  public static func loadOrCreate(_ path: String) throws(StoreError) -> CurveKeyPair {
    if let bytes = try AtomicFile.read(path) {
      var info = stat()
      if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
        throw StoreError.insecure(
          path, "mode \(String(info.st_mode & 0o777, radix: 8)); run: chmod 600 \(path)")
      }
      let contents: Contents
      do {
        contents = try JSONDecoder().decode(Contents.self, from: Data(bytes))
      } catch {
        throw StoreError.unreadable(path, "\(error)")
      }
      guard contents.version == 1 else {
        throw StoreError.unsupportedVersion(path, contents.version)
      }
      guard Z85.decode(contents.publicKey)?.count == 32,
        Z85.decode(contents.secretKey)?.count == 32
      else {
        throw StoreError.unreadable(path, "the keys are not 40-character Z85 CURVE keys")
      }
      return CurveKeyPair(publicKey: contents.publicKey, secretKey: contents.secretKey)
    }
    let pair: CurveKeyPair
    do {
      pair = try CurveKeyPair.generate()
    } catch {
      throw StoreError.unreadable(path, "cannot generate a key pair: \(error)")
    }
    let contents = Contents(version: 1, publicKey: pair.publicKey, secretKey: pair.secretKey)
    try AtomicFile.write(try encode(contents), to: path, mode: 0o600)
    return pair
  }

  static func encode<T: Encodable>(_ value: T) throws(StoreError) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
      return [UInt8](try encoder.encode(value)) + [0x0A]
    } catch {
      throw StoreError.unreadable("(encoding)", "\(error)")
    }
  }
}
