import CSodium
import ZeroMQ

/// A pairing PIN sealed to one screen's CURVE key, so only that screen can show it: the
/// broker publishes pairing prompts on a topic every admitted subscriber reads (a paired remote
/// too), and a PIN in the clear there would let any of them pair spare keys.
///
/// CURVE keys are X25519 keys, so libsodium's sealed boxes (`crypto_box_seal`: an ephemeral
/// sender key, X25519 and XSalsa20-Poly1305) take them as they are. Hand-written only as the
/// thin call into libsodium, which libzmq already links for CURVE.
public enum SealedPIN {
  /// A sealed box's overhead: the ephemeral public key and the MAC (`crypto_box_SEALBYTES`, a
  /// macro Swift does not import).
  static let sealBytes = crypto_box_sealbytes()

  /// `pin` sealed to the screen key `publicKey` (Z85); nil if the key is not a CURVE key.
  public static func seal(_ pin: String, to publicKey: String) -> [UInt8]? {
    guard let key = Z85.decode(publicKey), key.count == crypto_box_publickeybytes() else {
      return nil
    }
    _ = sodium_init()
    let message = Array(pin.utf8)
    var box = [UInt8](repeating: 0, count: message.count + sealBytes)
    guard crypto_box_seal(&box, message, UInt64(message.count), key) == 0 else { return nil }
    return box
  }

  /// The PIN in `box`, opened with the screen's key pair; nil if it was not sealed to this key
  /// or was changed on the way.
  public static func open(_ box: [UInt8], with keyPair: CurveKeyPair) -> String? {
    guard box.count > sealBytes, box.count <= 64 + sealBytes,
      let publicKey = Z85.decode(keyPair.publicKey), let secretKey = Z85.decode(keyPair.secretKey),
      publicKey.count == 32, secretKey.count == 32
    else { return nil }
    _ = sodium_init()
    var message = [UInt8](repeating: 0, count: box.count - sealBytes)
    guard crypto_box_seal_open(&message, box, UInt64(box.count), publicKey, secretKey) == 0 else {
      return nil
    }
    let pin = String(decoding: message, as: UTF8.self)
    return message.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) ? pin : nil
  }
}
