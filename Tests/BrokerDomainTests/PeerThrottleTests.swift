import BrokerDomain
import FocusEngine
import Testing

/// `PeerThrottle` changes a peer's bucket in place, found by the position it keeps for the last
/// peer admitted (no lookup for a repeat, in `admit` or in `charge`): it must decide exactly as
/// the straightforward version, which looked the peer up for every read and write
/// (`Reference`, below), through new peers (the table growing) and prunes.
@Suite("Peer throttle: at most one lookup per message, the same decisions")
struct PeerThrottleTests {
  /// The throttle as it was before the slot was remembered, kept as the reference.
  struct Reference {
    struct Bucket {
      var tokens: Double
      var bytes: Double
      var updated: BrokerInstant
      var refused: UInt64
    }

    let rate: Double
    let burst: Double
    let byteRate: Double
    let byteBurst: Double
    var buckets: [[UInt8]: Bucket] = [:]
    var lastPrune = BrokerInstant.origin

    mutating func admit(_ peer: [UInt8], at now: BrokerInstant) -> Bool {
      prune(now: now)
      var bucket =
        buckets[peer] ?? Bucket(tokens: burst, bytes: byteBurst, updated: now, refused: 0)
      let elapsed = max(0, bucket.updated.duration(to: now).seconds)
      bucket.tokens = min(burst, bucket.tokens + elapsed * rate)
      if byteRate.isFinite { bucket.bytes = min(byteBurst, bucket.bytes + elapsed * byteRate) }
      bucket.updated = now
      let admitted = bucket.tokens >= 1 && bucket.bytes >= 0
      if admitted { bucket.tokens -= 1 } else { bucket.refused += 1 }
      buckets[peer] = bucket
      return admitted
    }

    mutating func charge(_ peer: [UInt8], bytes: Int) {
      guard byteRate.isFinite, buckets[peer] != nil else { return }
      buckets[peer]?.bytes -= Double(bytes)
    }

    mutating func admission(_ peer: [UInt8], at now: BrokerInstant) -> PeerThrottle.Admission {
      if admit(peer, at: now) { return .serve }
      return refused(peer) % PeerThrottle.answerEvery == 1 ? .refuse : .drop
    }

    func refused(_ peer: [UInt8]) -> UInt64 { buckets[peer]?.refused ?? 0 }

    mutating func prune(now: BrokerInstant) {
      guard lastPrune.duration(to: now) > .seconds(10) else { return }
      lastPrune = now
      let refill = byteRate.isFinite ? max(burst / rate, 2 * byteBurst / byteRate) : burst / rate
      let full = Duration.seconds(refill) + .seconds(1)
      buckets = buckets.filter { $0.value.updated.duration(to: now) < full }
    }
  }

  /// Rates and bursts: messages only, and bytes too (the broker's message rate with a byte
  /// budget small enough that the random charges run it into debt).
  static let limits: [(Double, Double, Double, Double)] = [
    (1, 1, .infinity, .infinity), (50, 10, 1000, 4000), (2000, 2000, 2048, 8192),
    (5, 3, 100, 100),
  ]

  @Test("random admissions and charges decide as the reference", arguments: limits)
  func sameDecisions(limits: (Double, Double, Double, Double)) {
    let (rate, burst, byteRate, byteBurst) = limits
    var throttle = PeerThrottle(
      rate: rate, burst: burst, byteRate: byteRate, byteBurst: byteBurst)
    var reference = Reference(
      rate: rate, burst: burst, byteRate: byteRate, byteBurst: byteBurst)
    var random = SplitMix64(seed: UInt64(rate * 7 + burst))
    var now = BrokerInstant.origin + .seconds(1)
    // Routing ids, and CURVE keys' budget names (a zero byte, then "peer:" and 64 hex digits):
    // two that differ only in their last byte, and one that is the other's prefix.
    let key = [0] + Array(("peer:" + String(repeating: "ab", count: 32)).utf8)
    var peers: [[UInt8]] =
      (0..<3).map { [0, UInt8($0), 7] } + [key, key.dropLast() + [0x63], Array(key.prefix(33))]
    var last = peers[0]
    var decisions: [PeerThrottle.Admission: Int] = [:]
    for step in 0..<20_000 {
      switch random.below(10) {
      case 0: now = now + .milliseconds(Int64(random.below(50)))
      case 1 where random.below(20) == 0: now = now + .seconds(Int64(5 + random.below(30)))
      case 2 where random.below(50) == 0: peers.append([1, UInt8(truncatingIfNeeded: step), 9])
      case 3, 4:
        // Equal to the last admitted peer, in a storage of its own: compared by content.
        let peer = random.below(2) == 0 ? last : Array(last)
        let bytes = random.below(3) == 0 ? random.below(20_000) : random.below(200)
        throttle.charge(peer, bytes: bytes)
        reference.charge(peer, bytes: bytes)
      case 5:
        // Another peer, known or not, maybe never admitted.
        let peer = random.below(4) == 0 ? [2, UInt8(random.below(3))] : peers[random.below(6)]
        let bytes = random.below(5000)
        throttle.charge(peer, bytes: bytes)
        reference.charge(peer, bytes: bytes)
      default:
        let peer = peers[random.below(peers.count)]
        last = peer
        let decided = throttle.admission(peer, at: now)
        let expected = reference.admission(peer, at: now)
        #expect(decided == expected, "step \(step)")
        decisions[decided, default: 0] += 1
        if decided != expected { return }
      }
    }
    for peer in peers { #expect(throttle.refused(peer) == reference.refused(peer)) }
    #expect(throttle.peerCount == reference.buckets.count)
    // The comparison means something only if peers were both served and refused.
    let refused = decisions[.refuse, default: 0] + decisions[.drop, default: 0]
    #expect(decisions[.serve, default: 0] > 100 && refused > 0, "\(decisions)")
  }
}
