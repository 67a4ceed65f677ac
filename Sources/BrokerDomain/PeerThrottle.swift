/// Per-peer flood control, pure: a token bucket per peer (its ROUTER routing id), refilled at
/// `rate` messages per second up to `burst`, and a second bucket of bytes refilled at
/// `byteRate` up to `byteBurst`. A message is admitted while the peer has a message token and
/// its byte bucket is not in debt; its size is charged once it has been read (`charge`), so one
/// huge message puts the peer in debt and its next messages are refused until it is repaid. A message over the budget costs the broker a
/// lookup (the broker answers the first and every 1000th with `RATE_LIMITED` and drops the
/// rest), never engine work or state publications, so one flooding remote cannot delay
/// another's input or a screen's state by more than its share of the socket.
public struct PeerThrottle: Sendable {
  private struct Bucket: Sendable {
    var tokens: Double
    var bytes: Double
    var updated: BrokerInstant
    var refused: UInt64

    /// Refills the bucket to `now` (`rate` messages and `byteRate` bytes a second, up to
    /// `burst` and `byteBurst`) and spends a token if it has one.
    mutating func spend(
      at now: BrokerInstant, rate: Double, burst: Double, byteRate: Double, byteBurst: Double
    ) -> Bool {
      let elapsed = max(0, updated.duration(to: now).seconds)
      tokens = min(burst, tokens + elapsed * rate)
      if byteRate.isFinite { bytes = min(byteBurst, bytes + elapsed * byteRate) }
      updated = now
      let admitted = tokens >= 1 && bytes >= 0
      if admitted {
        tokens -= 1
      } else {
        refused += 1
      }
      return admitted
    }
  }

  /// A budget's name (a routing id, or a CURVE key's 70 bytes), hashed as one run of bytes:
  /// `[UInt8]`'s own hashing feeds the hasher a byte at a time. For a key's name `charge` took
  /// 3,272 → 1,270 instructions and `admission` 3,296 → 1,049 (callgrind, the CURVE broker).
  private struct Name: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
      bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
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
  /// Sustained bytes per second per peer.
  public let byteRate: Double
  /// Bytes a peer may send at once.
  public let byteBurst: Double
  /// Of refused messages, one in this many is answered.
  public static let answerEvery: UInt64 = 1000
  private typealias Buckets = [Name: Bucket]
  private var buckets: Buckets = [:]
  /// The last admitted peer's name and its bucket's position in `buckets`, valid while the
  /// table's layout is unchanged: cleared or set anew wherever a bucket is added or removed.
  private var last: (name: [UInt8], index: Buckets.Index)?
  private var lastPrune = BrokerInstant.origin

  /// A throttle of `rate` messages per second with bursts of `burst`, and `byteRate` bytes
  /// per second with bursts of `byteBurst`.
  public init(
    rate: Double = 500, burst: Double = 100, byteRate: Double = .infinity,
    byteBurst: Double = .infinity
  ) {
    self.rate = rate
    self.burst = burst
    self.byteRate = byteRate
    self.byteBurst = byteBurst
  }

  /// Whether `peer` may send a message at `now`; spends a token if so.
  ///
  /// A peer's messages come in runs, and `charge` follows each admission: the bucket of the
  /// last peer admitted is kept by its position (`last`), so a repeat is found by comparing
  /// names (a buffer identity check when it is the same array) instead of hashing it. A new peer
  /// or a prune (the only changes to the table's layout) sets it anew. Admission and charge took
  /// 1,783 → 697 instructions per request (callgrind, `scripts/bench-instructions`);
  /// `PeerThrottleTests` holds it to the straightforward version.
  public mutating func admit(_ peer: [UInt8], at now: BrokerInstant) -> Bool {
    prune(now: now)
    let index = position(of: peer, at: now)
    return buckets.values[index].spend(
      at: now, rate: rate, burst: burst, byteRate: byteRate, byteBurst: byteBurst)
  }

  /// Where `peer`'s bucket is, made full at `now` if it has none; remembered as `last`.
  private mutating func position(of peer: [UInt8], at now: BrokerInstant) -> Buckets.Index {
    if let last, last.name == peer { return last.index }
    let name = Name(peer)
    let index: Buckets.Index
    if let found = buckets.index(forKey: name) {
      index = found
    } else {
      buckets[name] = Bucket(tokens: burst, bytes: byteBurst, updated: now, refused: 0)
      guard let inserted = buckets.index(forKey: name) else {
        preconditionFailure("a bucket just stored is in the table")
      }
      index = inserted
    }
    last = (peer, index)
    return index
  }

  /// Charges `bytes` (a message just read) to `peer`'s byte budget; it may go into debt.
  /// One lookup (none for the peer admitted last): the bucket is changed in place, and a peer
  /// without one is left alone.
  public mutating func charge(_ peer: [UInt8], bytes: Int) {
    guard byteRate.isFinite else { return }
    // Not `buckets[Name(peer)]?.bytes -=`: a write through the key's subscript makes room for
    // an insertion first, which can move every bucket (and so invalidate `last`).
    if let last, last.name == peer {
      buckets.values[last.index].bytes -= Double(bytes)
    } else if let index = buckets.index(forKey: Name(peer)) {
      buckets.values[index].bytes -= Double(bytes)
    }
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
  public func refused(_ peer: [UInt8]) -> UInt64 { buckets[Name(peer)]?.refused ?? 0 }

  /// The number of peers tracked.
  public var peerCount: Int { buckets.count }

  /// Forgets peers idle long enough to have a full bucket again (at most every 10 s).
  private mutating func prune(now: BrokerInstant) {
    guard lastPrune.duration(to: now) > .seconds(10) else { return }
    lastPrune = now
    // A peer in debt by up to one burst (one message of the largest size) is full again after
    // two bursts' worth of refill.
    let refill = byteRate.isFinite ? max(burst / rate, 2 * byteBurst / byteRate) : burst / rate
    let full = Duration.seconds(refill) + .seconds(1)
    buckets = buckets.filter { $0.value.updated.duration(to: now) < full }
    last = nil
  }
}
