/// Per-peer flood control, pure: a token bucket per peer (its ROUTER routing id), refilled at
/// `rate` messages per second up to `burst`. A message over the budget costs the broker a
/// lookup (the broker answers the first and every 1000th with `RATE_LIMITED` and drops the
/// rest), never engine work or state publications, so one flooding remote cannot delay
/// another's input or a screen's state by more than its share of the socket.
public struct PeerThrottle: Sendable {
  private struct Bucket: Sendable {
    var tokens: Double
    var updated: BrokerInstant
    var refused: UInt64
  }

  /// What to do with a peer's message.
  public enum Admission: Sendable, Equatable {
    /// Within budget: serve it.
    case serve
    /// Over budget: read it only to answer `RATE_LIMITED` (the first and every 1000th).
    case refuse
    /// Over budget: drop it unread and unanswered.
    case drop
  }

  /// Sustained messages per second per peer.
  public let rate: Double
  /// Messages a peer may send at once.
  public let burst: Double
  /// Of refused messages, one in this many is answered.
  public static let answerEvery: UInt64 = 1000
  private var buckets: [[UInt8]: Bucket] = [:]
  private var lastPrune = BrokerInstant.origin

  /// A throttle of `rate` messages per second with bursts of `burst`.
  public init(rate: Double = 500, burst: Double = 100) {
    self.rate = rate
    self.burst = burst
  }

  /// Whether `peer` may send a message at `now`; spends a token if so.
  public mutating func admit(_ peer: [UInt8], at now: BrokerInstant) -> Bool {
    prune(now: now)
    var bucket = buckets[peer] ?? Bucket(tokens: burst, updated: now, refused: 0)
    let elapsed = bucket.updated.duration(to: now).seconds
    bucket.tokens = min(burst, bucket.tokens + max(0, elapsed) * rate)
    bucket.updated = now
    let admitted = bucket.tokens >= 1
    if admitted {
      bucket.tokens -= 1
    } else {
      bucket.refused += 1
    }
    buckets[peer] = bucket
    return admitted
  }

  /// Spends a token of `peer`'s budget and says what to do with its message.
  public mutating func admission(_ peer: [UInt8], at now: BrokerInstant) -> Admission {
    if admit(peer, at: now) { return .serve }
    return refused(peer) % Self.answerEvery == 1 ? .refuse : .drop
  }

  /// How long a refused peer should wait: the time one token takes to come back.
  public var retryAfter: Duration {
    .milliseconds(Int64(1000 / max(1, rate))) + .milliseconds(1)
  }

  /// Messages refused for `peer` so far.
  public func refused(_ peer: [UInt8]) -> UInt64 { buckets[peer]?.refused ?? 0 }

  /// The number of peers tracked.
  public var peerCount: Int { buckets.count }

  /// Forgets peers idle long enough to have a full bucket again (at most every 10 s).
  private mutating func prune(now: BrokerInstant) {
    guard lastPrune.duration(to: now) > .seconds(10) else { return }
    lastPrune = now
    let full = Duration.seconds(burst / rate) + .seconds(1)
    buckets = buckets.filter { $0.value.updated.duration(to: now) < full }
  }
}
