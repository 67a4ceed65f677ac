import TenFootSecurity

/// The broker's pairing rules, pure: no sockets, no clock, no randomness of its own (the
/// caller passes the time, the nonce and the PIN), so every rule is unit-tested.
///
/// One pairing at a time: a new request replaces the one in progress (and its PIN). A wrong
/// proof blocks every attempt, from any key, for 1 s, doubling per consecutive failure up to
/// 64 s: an attacker cannot dodge the back-off by making new keys. Success resets it.
public struct PairingSession: Sendable {
  /// A pairing waiting for its proof.
  public struct Pending: Sendable, Equatable {
    /// The remote's public key (Z85), from the CURVE handshake, never from the message.
    public var remoteKey: String
    /// The name the remote gave.
    public var name: String
    /// The fresh nonce sent in the challenge.
    public var nonce: [UInt8]
    /// The PIN the screens show.
    public var pin: String
    /// When the pairing expires (monotonic nanoseconds).
    public var expiresAt: UInt64
  }

  /// What `begin` decided.
  public enum Begin: Sendable, Equatable {
    /// Show `pending.pin` and send the nonce.
    case challenge(Pending)
    /// Too many recent failures: retry after this many nanoseconds.
    case backoff(retryAfter: UInt64)
  }

  /// What `prove` decided.
  public enum Proof: Sendable, Equatable {
    /// Allow the key; the pairing that succeeded (for the broker's own proof).
    case paired(Pending)
    /// Wrong PIN: blocked for this many nanoseconds.
    case wrongPIN(retryAfter: UInt64)
    /// Still blocked from an earlier failure.
    case backoff(retryAfter: UInt64)
    /// No pairing in progress for this key (never begun, expired, or replaced).
    case noPairing
  }

  /// How long a PIN stays valid.
  public let lifetime: UInt64
  /// The pairing in progress.
  public private(set) var pending: Pending?
  /// Consecutive wrong proofs.
  public private(set) var failures = 0
  /// No attempt is accepted before this time.
  public private(set) var blockedUntil: UInt64 = 0

  /// A session whose PINs live `lifetimeSeconds`.
  public init(lifetimeSeconds: UInt64 = 120) {
    lifetime = lifetimeSeconds * 1_000_000_000
  }

  /// The back-off after `failures` consecutive wrong proofs: 1 s doubling, at most 64 s.
  public static func backoff(afterFailures failures: Int) -> UInt64 {
    guard failures > 0 else { return 0 }
    return UInt64(1) << UInt64(min(failures - 1, 6)) * 1_000_000_000
  }

  /// A remote asks to pair.
  public mutating func begin(
    remoteKey: String, name: String, now: UInt64, nonce: [UInt8], pin: String
  ) -> Begin {
    if now < blockedUntil { return .backoff(retryAfter: blockedUntil - now) }
    let started = Pending(
      remoteKey: remoteKey, name: name, nonce: nonce, pin: pin, expiresAt: now + lifetime)
    pending = started
    return .challenge(started)
  }

  /// A remote sends its proof; `brokerKey` and the remote's key are raw 32-byte keys.
  public mutating func prove(
    remoteKey: String, remoteKeyBytes: [UInt8], brokerKey: [UInt8], proof: [UInt8], now: UInt64
  ) -> Proof {
    if now < blockedUntil { return .backoff(retryAfter: blockedUntil - now) }
    guard let current = pending, current.remoteKey == remoteKey else { return .noPairing }
    guard now < current.expiresAt else {
      pending = nil
      return .noPairing
    }
    if PairingProof.verify(
      proof, pin: current.pin, nonce: current.nonce, remoteKey: remoteKeyBytes,
      brokerKey: brokerKey)
    {
      pending = nil
      failures = 0
      blockedUntil = 0
      return .paired(current)
    }
    failures += 1
    let wait = Self.backoff(afterFailures: failures)
    blockedUntil = now + wait
    return .wrongPIN(retryAfter: wait)
  }

  /// Ends a pairing that expired; returns whether one did (so screens hide the PIN).
  public mutating func expire(now: UInt64) -> Bool {
    guard let current = pending, now >= current.expiresAt else { return false }
    pending = nil
    return true
  }
}
