import CSodium

/// The proof a remote sends to show it knows the PIN the screen displays, without sending it:
/// HMAC-SHA256 keyed with the PIN over a label, the broker's fresh nonce, the remote's public
/// key and the broker's public key (libsodium's `crypto_auth_hmacsha256`).
///
/// Binding both keys means a proof is good for exactly this remote talking to exactly this
/// broker in exactly this attempt; the broker answers with the same construction under another
/// label, so the remote knows the broker key it pins came from the broker that showed the PIN.
/// Limitation (see README): a 4-digit PIN has 10,000 values, so whoever sees a proof can find
/// that PIN offline; a passive eavesdropper learns a PIN that is already used up, but an
/// impostor in the middle at the moment of pairing could pair itself (as with any PIN scheme
/// without a PAKE).
public enum PairingProof {
  /// The nonce size the broker sends.
  public static let nonceLength = 32
  /// The proof size.
  public static let length = Int(crypto_auth_hmacsha256_BYTES)
  /// Whose proof: the remote's (`PairProof`) or the broker's answer (`Paired`).
  public enum Role: String, Sendable {
    /// The remote proves it read the PIN on the screen.
    case remote = "tenfoot-pair-v1"
    /// The broker proves it chose the PIN, vouching for the key it sent.
    case broker = "tenfoot-paired-v1"
  }

  /// The proof for `pin` over the nonce and the two raw 32-byte public keys.
  public static func make(
    _ role: Role = .remote, pin: String, nonce: [UInt8], remoteKey: [UInt8], brokerKey: [UInt8]
  ) -> [UInt8] {
    _ = sodium_init()
    let key = Array(pin.utf8)
    let message = Array(role.rawValue.utf8) + nonce + remoteKey + brokerKey
    var state = crypto_auth_hmacsha256_state()
    var out = [UInt8](repeating: 0, count: length)
    _ = crypto_auth_hmacsha256_init(&state, key, key.count)
    _ = crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
    _ = crypto_auth_hmacsha256_final(&state, &out)
    return out
  }

  /// Whether `proof` is right for `pin`, compared in constant time.
  public static func verify(
    _ proof: [UInt8], role: Role = .remote, pin: String, nonce: [UInt8], remoteKey: [UInt8],
    brokerKey: [UInt8]
  ) -> Bool {
    let expected = make(role, pin: pin, nonce: nonce, remoteKey: remoteKey, brokerKey: brokerKey)
    return equalInConstantTime(proof, expected)
  }

  /// Whether `a` and `b` are equal, compared in constant time (`sodium_memcmp`) so the time
  /// taken says nothing about where they differ. Lengths are not secret.
  public static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return sodium_memcmp(a, b, a.count) == 0
  }

  /// `count` cryptographically random bytes (`randombytes_buf`).
  public static func randomBytes(_ count: Int) -> [UInt8] {
    _ = sodium_init()
    var bytes = [UInt8](repeating: 0, count: count)
    randombytes_buf(&bytes, count)
    return bytes
  }

  /// A uniformly random PIN of `digits` decimal digits (`randombytes_uniform`).
  public static func randomPIN(digits: Int = 4) -> String {
    _ = sodium_init()
    var limit: UInt32 = 1
    for _ in 0..<digits { limit *= 10 }
    let value = String(randombytes_uniform(limit))
    return String(repeating: "0", count: max(0, digits - value.count)) + value
  }
}
