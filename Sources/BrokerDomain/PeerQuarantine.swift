/// Quarantine of keys that keep flooding, pure: which CURVE keys the broker cuts off and refuses
/// at ZAP for a while.
///
/// A budget (`PeerThrottle`) is checked when the broker's loop reads a message, after libzmq's
/// I/O thread has read and decrypted it: a key that keeps sending past its budget still costs
/// that thread (which every other peer's messages pass through) its decryption, however little
/// of it the loop serves. So the bytes a key sends while over its budget are counted here as a
/// debt that is forgiven at `margin / window` bytes a second; once the debt exceeds `margin`,
/// the key is quarantined for `duration`: the broker cuts each of its connections (once each)
/// and its ZAP handler refuses the key's new ones until the quarantine ends, so its messages
/// are no longer decrypted at all. The quarantine then lifts by itself with a clean debt.
///
/// An honest peer never comes near the margin: a screen's registration of the largest layout,
/// sent in parts, is at most one byte burst (one whole message), all within budget unless it
/// just sent another; even then, the rest of that one message is at most one whole message over
/// budget, and the margin is several of those.
public struct PeerQuarantine: Sendable, Equatable {
  /// When a key is quarantined, and for how long.
  public struct Policy: Sendable, Equatable {
    /// Bytes a key may send over its budget (in debt) before it is quarantined; 0 never
    /// quarantines.
    public var margin: Double
    /// The time over which a debt of `margin` is forgiven (the debt falls by `margin / window`
    /// bytes a second).
    public var window: Duration
    /// How long a quarantine lasts.
    public var duration: Duration

    /// A policy.
    public init(margin: Double, window: Duration, duration: Duration) {
      self.margin = margin
      self.window = window
      self.duration = duration
    }

    /// 64 MiB over budget, forgiven over 10 s (6.4 MiB a second); 60 s of quarantine.
    public static let standard = Policy(
      margin: 64 * 1024 * 1024, window: .seconds(10), duration: .seconds(60))

    /// Whether this policy ever quarantines.
    public var quarantines: Bool { margin > 0 && duration > .zero && window > .zero }
  }

  /// What a key's bytes over budget led to.
  public enum Verdict: Sendable, Equatable {
    /// Still within the margin (or not enabled).
    case tolerated
    /// The key is quarantined from now until the instant given (this message started it).
    case quarantined(until: BrokerInstant)
    /// The key was already quarantined.
    case alreadyQuarantined
  }

  private struct Debt: Sendable, Equatable {
    var bytes: Double
    var updated: BrokerInstant
  }

  private struct Quarantine: Sendable, Equatable {
    var until: BrokerInstant
    /// The connections (ROUTER routing ids) already cut in this quarantine.
    var cut: Set<[UInt8]> = []
  }

  /// The policy.
  public let policy: Policy
  private var debts: [String: Debt] = [:]
  private var quarantines: [String: Quarantine] = [:]
  private var lastPrune = BrokerInstant.origin

  /// A quarantine that follows `policy`.
  public init(policy: Policy = .standard) {
    self.policy = policy
  }

  /// Whether no key is quarantined (the broker's fast path: one check per message).
  public var isEmpty: Bool { quarantines.isEmpty }

  /// Counts `bytes` that `key` sent over its budget at `now`; says whether that quarantines it.
  public mutating func overBudget(_ key: String, bytes: Int, at now: BrokerInstant) -> Verdict {
    guard policy.quarantines else { return .tolerated }
    if isQuarantined(key, at: now) { return .alreadyQuarantined }
    prune(now: now)
    var debt = debts[key] ?? Debt(bytes: 0, updated: now)
    let elapsed = max(0, debt.updated.duration(to: now).seconds)
    debt.bytes = max(0, debt.bytes - elapsed * policy.margin / policy.window.seconds)
    debt.bytes += Double(bytes)
    debt.updated = now
    guard debt.bytes > policy.margin else {
      debts[key] = debt
      return .tolerated
    }
    debts[key] = nil
    let until = now + policy.duration
    quarantines[key] = Quarantine(until: until)
    return .quarantined(until: until)
  }

  /// Whether `key` is quarantined at `now`.
  public func isQuarantined(_ key: String, at now: BrokerInstant) -> Bool {
    guard let quarantine = quarantines[key] else { return false }
    return now < quarantine.until
  }

  /// When `key`'s quarantine ends, if it is quarantined at `now`.
  public func quarantinedUntil(_ key: String, at now: BrokerInstant) -> BrokerInstant? {
    guard let quarantine = quarantines[key], now < quarantine.until else { return nil }
    return quarantine.until
  }

  /// Whether the broker should cut `connection`, which just brought a message of `key`: yes
  /// once per connection while `key` is quarantined (a cut connection's messages already read
  /// may still come; cutting it again could hit another connection that reuses its descriptor).
  public mutating func shouldCut(_ key: String, connection: [UInt8], at now: BrokerInstant)
    -> Bool
  {
    guard isQuarantined(key, at: now) else { return false }
    return quarantines[key]?.cut.insert(connection).inserted ?? false
  }

  /// Ends the quarantines over at `now`; returns the keys let in again.
  public mutating func lift(at now: BrokerInstant) -> [String] {
    let ended = quarantines.filter { !(now < $0.value.until) }.keys.sorted()
    for key in ended { quarantines[key] = nil }
    return ended
  }

  /// The debt `key` carries at its last count (for tests and logs).
  public func debt(_ key: String) -> Double { debts[key]?.bytes ?? 0 }

  /// Forgets debts fully forgiven (at most every 10 s), so keys that once went over budget are
  /// not kept forever.
  private mutating func prune(now: BrokerInstant) {
    guard lastPrune.duration(to: now) > .seconds(10) else { return }
    lastPrune = now
    let rate = policy.margin / policy.window.seconds
    debts = debts.filter { $0.value.bytes - $0.value.updated.duration(to: now).seconds * rate > 0 }
  }
}
