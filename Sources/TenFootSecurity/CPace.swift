import CSodium

/// CPace, the balanced PAKE of the CFRG draft draft-irtf-cfrg-cpace (checked against revision
/// 21's appendix B.3 test vectors), cipher suite CPACE-RISTR255-SHA512: the group ristretto255
/// (RFC 9496) and SHA-512, through libsodium.
///
/// Both parties derive a secret generator from the password-related string (PRS), the channel
/// identifier (CI) and the session id (sid); each sends `y * generator` for a fresh secret
/// scalar `y`; both compute `K = y * (other share)` and hash it with the transcript into the
/// intermediate session key ISK. ISK matches only if PRS, CI, sid and both messages match, and
/// a recorded exchange does not let anyone test a PRS offline: checking a guess needs `K`,
/// which needs one of the secret scalars (the computational Diffie-Hellman problem).
///
/// Initiator-responder mode (the draft's `transcript_ir`): A (the initiator) speaks first.
public enum CPace {
  /// The suite's domain-separation identifier, `G.DSI`.
  public static let dsi = Array("CPaceRistretto255".utf8)
  /// SHA-512's input block size, `H.s_in_bytes`.
  public static let hashBlockBytes = 128
  /// The size of an encoded group element (a share, `K`, the generator).
  public static let elementBytes = 32
  /// The size of a scalar.
  public static let scalarBytes = 32
  /// The size of ISK (SHA-512's output).
  public static let keyBytes = 64

  /// `prepend_len`: `data` after its length in LEB128.
  public static func prependLength(_ data: [UInt8]) -> [UInt8] {
    var length = data.count
    var encoded: [UInt8] = []
    repeat {
      let low = UInt8(length & 0x7F)
      length >>= 7
      encoded.append(length == 0 ? low : low | 0x80)
    } while length != 0
    return encoded + data
  }

  /// `lv_cat`: each part after its length, concatenated (a prefix-free encoding).
  public static func lvCat(_ parts: [UInt8]...) -> [UInt8] {
    parts.flatMap(prependLength)
  }

  /// `generator_string(DSI, PRS, CI, sid, s_in_bytes)`: DSI and PRS zero-padded to fill the
  /// hash's first block, then CI and sid.
  public static func generatorString(prs: [UInt8], ci: [UInt8], sid: [UInt8]) -> [UInt8] {
    let padding = max(
      0, hashBlockBytes - 1 - prependLength(prs).count - prependLength(dsi).count)
    return lvCat(dsi, prs, [UInt8](repeating: 0, count: padding), ci, sid)
  }

  /// `G.calculate_generator`: SHA-512 of the generator string, mapped to ristretto255 with the
  /// RFC 9496 element derivation (`crypto_core_ristretto255_from_hash`); the encoded point.
  public static func generator(prs: [UInt8], ci: [UInt8], sid: [UInt8]) -> [UInt8] {
    _ = sodium_init()
    let hash = sha512(generatorString(prs: prs, ci: ci, sid: sid))
    var point = [UInt8](repeating: 0, count: elementBytes)
    _ = crypto_core_ristretto255_from_hash(&point, hash)
    return point
  }

  /// `G.sample_scalar`: uniform in [0, L) (`crypto_core_ristretto255_scalar_random`, the
  /// draft's permitted alternative to masking random bytes; libsodium never returns zero).
  public static func sampleScalar() -> [UInt8] {
    _ = sodium_init()
    var scalar = [UInt8](repeating: 0, count: scalarBytes)
    crypto_core_ristretto255_scalar_random(&scalar)
    return scalar
  }

  /// `G.scalar_mult_vfy(y, X)`: `y * X` encoded, or nil (the draft's `G.I`, abort) when `X`
  /// is not a valid encoding or the result is the identity. Also `G.scalar_mult` for a
  /// generator, which is always valid.
  public static func scalarMultiply(_ scalar: [UInt8], _ point: [UInt8]) -> [UInt8]? {
    guard scalar.count == scalarBytes, point.count == elementBytes else { return nil }
    _ = sodium_init()
    var result = [UInt8](repeating: 0, count: elementBytes)
    guard crypto_scalarmult_ristretto255(&result, scalar, point) == 0 else { return nil }
    return result
  }

  /// `transcript_ir(Ya, ADa, Yb, ADb)`.
  public static func transcript(
    shareA: [UInt8], dataA: [UInt8], shareB: [UInt8], dataB: [UInt8]
  ) -> [UInt8] {
    lvCat(shareA, dataA) + lvCat(shareB, dataB)
  }

  /// ISK = SHA-512(lv_cat(DSI || "_ISK", sid, K) || transcript).
  public static func intermediateKey(sid: [UInt8], k: [UInt8], transcript: [UInt8]) -> [UInt8] {
    sha512(lvCat(dsi + Array("_ISK".utf8), sid, k) + transcript)
  }

  /// SHA-512 (`crypto_hash_sha512`).
  public static func sha512(_ data: [UInt8]) -> [UInt8] {
    _ = sodium_init()
    var out = [UInt8](repeating: 0, count: Int(crypto_hash_sha512_BYTES))
    _ = crypto_hash_sha512(&out, data, UInt64(data.count))
    return out
  }

  /// HMAC-SHA-512 (`crypto_auth_hmacsha512`, any key length).
  public static func hmacSHA512(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
    _ = sodium_init()
    var state = crypto_auth_hmacsha512_state()
    var out = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha512_BYTES))
    _ = crypto_auth_hmacsha512_init(&state, key, key.count)
    _ = crypto_auth_hmacsha512_update(&state, message, UInt64(message.count))
    _ = crypto_auth_hmacsha512_final(&state, &out)
    return out
  }
}

/// One party's side of one CPace run, with the draft's optional key confirmation (section
/// 10.4): `mac_key = SHA-512("CPaceMac" || sid || ISK)`, `Ta = HMAC(mac_key, lv_cat(Ya, ADa))`,
/// `Tb = HMAC(mac_key, lv_cat(Yb, ADb))`. The secret scalar lives only in this value; use one
/// per run (the draft forbids reusing scalars).
public struct CPaceParty: Sendable {
  /// Which side: the initiator (A, whose message comes first in the transcript) or the
  /// responder (B).
  public enum Role: Sendable { case initiator, responder }

  /// What a finished run gives: the key and both confirmation tags.
  public struct Keys: Sendable, Equatable {
    /// ISK.
    public var isk: [UInt8]
    /// The tag this party sends.
    public var ownTag: [UInt8]
    /// The tag this party expects from the other.
    public var peerTag: [UInt8]
  }

  /// This party's role.
  public let role: Role
  /// This party's share (`Ya` or `Yb`), to send.
  public let share: [UInt8]
  /// This party's associated data (`ADa` or `ADb`), sent in the clear beside the share.
  public let associatedData: [UInt8]
  private let sid: [UInt8]
  private let scalar: [UInt8]

  /// Starts a run: the generator from `prs`, `ci` and `sid`, and a share from `scalar` (a
  /// fresh random one unless given, which only test vectors do).
  public init(
    role: Role, prs: [UInt8], ci: [UInt8], sid: [UInt8], associatedData: [UInt8],
    scalar: [UInt8]? = nil
  ) {
    let secret = scalar ?? CPace.sampleScalar()
    let generator = CPace.generator(prs: prs, ci: ci, sid: sid)
    // A derived generator is a valid, non-identity point and the scalar is nonzero and
    // reduced, so the product exists (with overwhelming probability; zero shares are refused
    // by the receiver's `scalarMultiply` anyway).
    self.share =
      CPace.scalarMultiply(secret, generator)
      ?? [UInt8](repeating: 0, count: CPace.elementBytes)
    self.role = role
    self.associatedData = associatedData
    self.sid = sid
    self.scalar = secret
  }

  /// Finishes with the other party's share and associated data; nil (abort) when the share
  /// is invalid or gives the identity.
  public func finish(peerShare: [UInt8], peerData: [UInt8]) -> Keys? {
    guard let k = CPace.scalarMultiply(scalar, peerShare) else { return nil }
    let (shareA, dataA, shareB, dataB) =
      role == .initiator
      ? (share, associatedData, peerShare, peerData)
      : (peerShare, peerData, share, associatedData)
    let transcript = CPace.transcript(shareA: shareA, dataA: dataA, shareB: shareB, dataB: dataB)
    let isk = CPace.intermediateKey(sid: sid, k: k, transcript: transcript)
    let macKey = CPace.sha512(Array("CPaceMac".utf8) + sid + isk)
    let tagA = CPace.hmacSHA512(key: macKey, CPace.lvCat(shareA, dataA))
    let tagB = CPace.hmacSHA512(key: macKey, CPace.lvCat(shareB, dataB))
    return role == .initiator
      ? Keys(isk: isk, ownTag: tagA, peerTag: tagB)
      : Keys(isk: isk, ownTag: tagB, peerTag: tagA)
  }
}
