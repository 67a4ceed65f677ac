/// Per-peer flood control, pure: a token bucket per ROUTER peer (its routing id), refilled at
/// `rate` messages per second up to `burst`. A message over the budget costs the broker a
/// lookup (the broker answers the first and every 1000th with `RATE_LIMITED` and drops the
/// rest), never engine work or state publications, so one flooding remote cannot delay
/// another's input or a screen's state by more than its share of the socket.
public struct PeerThrottle: Sendable {
  private struct Bucket: Sendable {
    var tokens: Double
    var updated: UInt64
    var refused: UInt64
  }

  /// Sustained messages per second per peer.
  public let rate: Double
  /// Messages a peer may send at once.
  public let burst: Double
  private var buckets: [[UInt8]: Bucket] = [:]
  private var lastPrune: UInt64 = 0

  /// A throttle of `rate` messages per second with bursts of `burst`.
  public init(rate: Double = 500, burst: Double = 100) {
    self.rate = rate
    self.burst = burst
  }

  /// Whether `peer` may send a message at `now` (monotonic nanoseconds); spends a token if so.
  public mutating func admit(_ peer: [UInt8], now: UInt64) -> Bool {
    prune(now: now)
    var bucket = buckets[peer] ?? Bucket(tokens: burst, updated: now, refused: 0)
    let elapsed = Double(now &- bucket.updated) / 1_000_000_000
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

  /// Messages refused for `peer` so far.
  public func refused(_ peer: [UInt8]) -> UInt64 { buckets[peer]?.refused ?? 0 }

  /// The number of peers tracked.
  public var peerCount: Int { buckets.count }

  /// Forgets peers idle long enough to have a full bucket again (at most every 10 s).
  private mutating func prune(now: UInt64) {
    guard now &- lastPrune > 10_000_000_000 else { return }
    lastPrune = now
    let full = UInt64(burst / rate * 1_000_000_000) + 1_000_000_000
    buckets = buckets.filter { now &- $0.value.updated < full }
  }
}
