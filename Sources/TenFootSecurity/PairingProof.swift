import CSodium

/// Pairing on CPace (see `CPace` and docs/protocol.md): the PIN is the password-related
/// string; the channel identifier binds a label, the broker's public key (its identity) and the
/// remote's; the session id is the broker's nonce then the remote's, fresh for every round; the
/// broker is the initiator (its share comes first, in the challenge), the remote the
/// responder. Each side then sends the draft's key confirmation tag (section 10.4), so both
/// know the other derived the same ISK, which needs the PIN and a secret scalar: a recorded
/// round lets no one test a PIN offline, and an active attacker gets one guess per round.
public enum PairingProof {
  /// The nonce size each side sends.
  public static let nonceLength = 32
  /// The smallest and largest nonce accepted from a remote.
  public static let nonceRange = 16...64
  /// The confirmation tag size (HMAC-SHA-512).
  public static let length = Int(crypto_auth_hmacsha512_BYTES)
  /// The CPace share size.
  public static let shareLength = CPace.elementBytes
  /// The protocol label at the head of the channel identifier.
  public static let label = Array("tenfoot-pair-v2".utf8)
  /// The broker's associated data, `ADa`.
  public static let brokerData = Array("tenfoot-broker".utf8)
  /// The remote's associated data, `ADb`.
  public static let remoteData = Array("tenfoot-remote".utf8)

  /// CI = lv_cat(label, broker public key, remote public key), raw 32-byte keys.
  public static func channel(brokerKey: [UInt8], remoteKey: [UInt8]) -> [UInt8] {
    CPace.lvCat(label, brokerKey, remoteKey)
  }

  /// The broker's side of one round (`secret`: its scalar, drawn fresh unless given).
  public static func broker(
    pin: String, brokerKey: [UInt8], remoteKey: [UInt8], brokerNonce: [UInt8],
    remoteNonce: [UInt8], secret: [UInt8]? = nil
  ) -> CPaceParty {
    CPaceParty(
      role: .initiator, prs: Array(pin.utf8),
      ci: channel(brokerKey: brokerKey, remoteKey: remoteKey), sid: brokerNonce + remoteNonce,
      associatedData: brokerData, scalar: secret)
  }

  /// The remote's side of one round, with a fresh scalar.
  public static func remote(
    pin: String, brokerKey: [UInt8], remoteKey: [UInt8], brokerNonce: [UInt8],
    remoteNonce: [UInt8]
  ) -> CPaceParty {
    CPaceParty(
      role: .responder, prs: Array(pin.utf8),
      ci: channel(brokerKey: brokerKey, remoteKey: remoteKey), sid: brokerNonce + remoteNonce,
      associatedData: remoteData)
  }

  /// The broker checks a remote's confirmation `tag` for its `share`; the broker's own tag
  /// when it verifies (constant-time comparison), nil otherwise (wrong PIN or a bad share).
  public static func brokerConfirms(
    _ party: CPaceParty, remoteShare: [UInt8], tag: [UInt8]
  ) -> [UInt8]? {
    guard let keys = party.finish(peerShare: remoteShare, peerData: remoteData),
      equalInConstantTime(tag, keys.peerTag)
    else { return nil }
    return keys.ownTag
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
  public static func randomPIN(digits: Int = 6) -> String {
    _ = sodium_init()
    var limit: UInt32 = 1
    for _ in 0..<digits { limit *= 10 }
    let value = String(randombytes_uniform(limit))
    return String(repeating: "0", count: max(0, digits - value.count)) + value
  }
}
