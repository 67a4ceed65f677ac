/// The broker's pairing rules, a pure state machine: no sockets, no clock, no randomness and no
/// cryptography of its own. The caller passes the time, the PIN and each CPace round (nonces,
/// secret scalar and share, as data), and the result of checking a confirmation against
/// `pending` (CPace lives in TenFootSecurity), so every rule is unit-tested in memory.
///
/// One pairing at a time: while one is in progress, another key's request is refused
/// (`busy`) instead of replacing it, so a stranger cannot take a person's pairing away; the
/// same key may start again (a new PIN). Each PIN attempt is one CPace round: a round answers
/// one confirmation, right or wrong, and the remote asks for the next round (same PIN) to try
/// again, so every guess costs an exchange with the broker. A wrong confirmation blocks every
/// attempt, from any key, for 1 s, doubling per consecutive failure up to 64 s: an attacker
/// cannot dodge the back-off by making new keys. Success resets it.
///
/// On top, `PairingGuard` counts wrong PINs per source address and in all: an address with
/// `addressLimit` failures is refused until they decay (one an hour), and `totalLimit` failures
/// close pairing until the operator opens it (`tenfoot-broker pairing open`, which clears every
/// count) or someone at a screen does (`openAtScreen`, which keeps the per-address counts). The
/// counts are saved (the `saveGuard` effect) so a restart does not reset them, and the screens
/// are told while pairing is closed (`announceClosed`), so the person there knows to open it.
public struct PairingSession: Sendable, Equatable {
  /// A pairing waiting for its proof.
  public struct Pending: Sendable, Equatable {
    /// The remote's public key (Z85), from the request, bound into the proof.
    public var remoteKey: String
    /// The name the remote gave (cleaned).
    public var name: String
    /// The PIN the screens show.
    public var pin: String
    /// The current CPace round; nil once its confirmation was checked (used up).
    public var round: PairingRound?
    /// When the pairing expires.
    public var expiresAt: BrokerInstant
    /// The screen that shows the PIN (nil: every screen key).
    public var screen: String? = nil
  }

  /// What `begin` decided.
  public enum Begin: Sendable, Equatable {
    /// Show `pending.pin` and send the nonce.
    case challenge(Pending)
    /// Too many recent failures: retry after this long.
    case backoff(retryAfter: Duration)
    /// Another key's pairing is in progress: it ends (expires) within this long.
    case busy(retryAfter: Duration)
  }

  /// What `prove` decided.
  public enum Proof: Sendable, Equatable {
    /// Allow the key; the pairing that succeeded (for the broker's own proof).
    case paired(Pending)
    /// Wrong PIN: blocked for this long.
    case wrongPIN(retryAfter: Duration)
    /// This round already answered a confirmation: ask for the next one.
    case roundUsed
    /// Still blocked from an earlier failure.
    case backoff(retryAfter: Duration)
    /// No pairing in progress for this key (never begun, expired, or replaced).
    case noPairing
  }

  /// How long a PIN stays valid.
  public let lifetime: Duration
  /// The pairing in progress.
  public internal(set) var pending: Pending?
  /// Consecutive wrong proofs.
  public private(set) var failures = 0
  /// No attempt is accepted before this time.
  public private(set) var blockedUntil = BrokerInstant.origin
  /// Wrong PINs per address and in all, and whether pairing is closed (saved across restarts).
  public var guardState = PairingGuard()
  /// When `guardState` last forgave failures (it forgives one per `PairingGuard.decay`).
  private var lastDecay = BrokerInstant.origin
  /// When the screens were last told that pairing is closed (nil: not since it closed).
  var closedAnnounced: BrokerInstant?
  /// While pairing is closed the screens are told again this often, so a screen that starts
  /// (or reconnects) later shows the notice too.
  public static let closedNoticeInterval = Duration.seconds(5)

  /// A session whose PINs live `lifetime`.
  public init(lifetime: Duration = .seconds(120)) {
    self.lifetime = lifetime
  }

  /// The back-off after `failures` consecutive wrong proofs: 1 s doubling, at most 64 s.
  public static func backoff(afterFailures failures: Int) -> Duration {
    guard failures > 0 else { return .zero }
    return .seconds(1 << min(failures - 1, 6))
  }

  /// A remote asks to pair at `now`, for `screen` (nil: every screen key shows the PIN).
  public mutating func begin(
    remoteKey: String, name: String, at now: BrokerInstant, pin: String, round: PairingRound,
    screen: String? = nil
  ) -> Begin {
    if now < blockedUntil { return .backoff(retryAfter: now.duration(to: blockedUntil)) }
    if let current = pending, current.remoteKey != remoteKey, now < current.expiresAt {
      return .busy(retryAfter: now.duration(to: current.expiresAt))
    }
    let started = Pending(
      remoteKey: remoteKey, name: Self.cleanName(name), pin: pin, round: round,
      expiresAt: now + lifetime, screen: screen)
    pending = started
    return .challenge(started)
  }

  /// Forgives the failures that decayed by `now` (one per `PairingGuard.decay` since the last
  /// failure or decay).
  public mutating func decay(at now: BrokerInstant) {
    if lastDecay == .origin || guardState.totalFailures == 0 && guardState.byAddress.isEmpty {
      lastDecay = now
      return
    }
    let elapsed = lastDecay.duration(to: now)
    let steps = Int(elapsed / PairingGuard.decay)
    guard steps > 0 else { return }
    guardState.forgive(steps)
    lastDecay = lastDecay + PairingGuard.decay * steps
  }

  /// Records a wrong PIN from `address`; closes pairing at the total limit.
  mutating func countFailure(from address: String, at now: BrokerInstant) {
    decay(at: now)  // With no failures counted yet, this starts the decay clock at `now`.
    guardState.fail(from: address)
    if guardState.closed { pending = nil }
  }

  /// Why `address` may not try now, if it may not: pairing closed, or the address locked.
  public func refusal(for address: String, at now: BrokerInstant) -> PairingRefusal? {
    if guardState.closed { return .closed(retryAfter: nil) }
    if guardState.byAddress[address, default: 0] >= PairingGuard.addressLimit {
      let wait = PairingGuard.decay - lastDecay.duration(to: now)
      return .closed(retryAfter: max(.seconds(1), wait))
    }
    return nil
  }

  /// The remote of the pairing in progress asks for a new round (same PIN) at `now`; `round`
  /// was drawn for `pending`'s PIN. Nil: no pairing in progress for this key.
  public mutating func nextRound(remoteKey: String, at now: BrokerInstant, round: PairingRound)
    -> Begin?
  {
    if now < blockedUntil { return .backoff(retryAfter: now.duration(to: blockedUntil)) }
    guard var current = pending, current.remoteKey == remoteKey else { return nil }
    guard now < current.expiresAt else {
      pending = nil
      return nil
    }
    current.round = round
    pending = current
    return .challenge(current)
  }

  /// A remote sends its confirmation at `now`; `proofMatches` is whether it was checked
  /// against `pending`'s round (its PIN, nonces and secret scalar, both keys) and matched.
  /// With no pending pairing for `remoteKey`, or a round already used, the result is not used.
  public mutating func prove(remoteKey: String, proofMatches: Bool, at now: BrokerInstant)
    -> Proof
  {
    if now < blockedUntil { return .backoff(retryAfter: now.duration(to: blockedUntil)) }
    guard let current = pending, current.remoteKey == remoteKey else { return .noPairing }
    guard now < current.expiresAt else {
      pending = nil
      return .noPairing
    }
    guard current.round != nil else { return .roundUsed }
    if proofMatches {
      pending = nil
      failures = 0
      blockedUntil = .origin
      guardState.totalFailures = 0  // A person paired at the screen: the total starts again.
      return .paired(current)
    }
    pending?.round = nil
    failures += 1
    let wait = Self.backoff(afterFailures: failures)
    blockedUntil = now + wait
    return .wrongPIN(retryAfter: wait)
  }

  /// Ends a pairing that expired by `now`; returns whether one did (so screens hide the PIN).
  public mutating func expire(at now: BrokerInstant) -> Bool {
    guard let current = pending, now >= current.expiresAt else { return false }
    pending = nil
    return true
  }

  /// A remote's name as screens show it: printable, at most 40 characters, never empty.
  public static func cleanName(_ name: String) -> String {
    let kept = name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
    let text = String(String.UnicodeScalarView(kept.prefix(40)))
    return text.isEmpty ? "remote" : text
  }
}
