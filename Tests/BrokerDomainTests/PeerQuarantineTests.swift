import BrokerDomain
import Testing

/// The quarantine rule (`PeerQuarantine`) with the broker's default budgets (`PeerThrottle`: 2,000
/// messages and 512 KiB a second, bursts of one second's messages and one 16 MiB message),
/// driven as the broker's loop drives them: each message is admitted or refused by the
/// throttle; an admitted one is charged, a refused one's bytes count against the key's margin.
@Suite("Domain: quarantine of keys that keep flooding")
struct PeerQuarantineTests {
  static let key = "peer:abc"
  static let kib = 1024
  static let mib = 1024 * 1024

  /// The throttle and quarantine of one broker with the default policy (or `policy`).
  struct Budgets {
    var throttle = PeerThrottle(
      rate: 2000, burst: 2000, byteRate: 512 * 1024, byteBurst: 16 * 1024 * 1024)
    var quarantine: PeerQuarantine

    init(policy: PeerQuarantine.Policy = .standard) {
      quarantine = PeerQuarantine(policy: policy)
    }

    /// One message of `bytes` from `key` at `now`, as the broker's loop handles it: what the
    /// quarantine said if the message was over budget (nil if it was served).
    mutating func message(_ bytes: Int, at now: BrokerInstant, key: String = key)
      -> PeerQuarantine.Verdict?
    {
      if quarantine.isQuarantined(key, at: now) { return .alreadyQuarantined }
      let budget = [0] + Array(key.utf8)
      if throttle.admission(budget, at: now) == .serve {
        throttle.charge(budget, bytes: bytes)
        return nil
      }
      return quarantine.overBudget(key, bytes: bytes, at: now)
    }

    /// A message of `total` bytes sent in parts of `part` bytes, one every `gap`, from `start`;
    /// returns the verdicts of the parts over budget and when the last part went.
    mutating func inParts(
      _ total: Int, part: Int, from start: BrokerInstant, gap: Duration = .microseconds(200)
    ) -> (verdicts: [PeerQuarantine.Verdict], end: BrokerInstant) {
      var (sent, now, verdicts) = (0, start, [PeerQuarantine.Verdict]())
      while sent < total {
        let size = min(part, total - sent)
        if let verdict = message(size, at: now) { verdicts.append(verdict) }
        sent += size
        now = now + gap
      }
      return (verdicts, now)
    }
  }

  @Test("an honest screen's 6 MiB layouts in parts are never quarantined, even back to back")
  func honestScreen() {
    var budgets = Budgets()
    var now = BrokerInstant.at(seconds: 1)
    var overBudget = 0
    // Its layout at start, then the same again as if it restarted every second for two minutes
    // (far more often than any screen does): the byte budget refuses most of them, the margin
    // is never passed.
    for _ in 0..<120 {
      let sent = budgets.inParts(6 * Self.mib, part: 192 * Self.kib, from: now)
      #expect(!sent.verdicts.contains { if case .quarantined = $0 { true } else { false } })
      overBudget += sent.verdicts.count
      now = now + .seconds(1)
    }
    #expect(overBudget > 0, "the budget did refuse parts: the margin, not the budget, spared it")
    #expect(budgets.quarantine.isEmpty)
    #expect(budgets.quarantine.debt(Self.key) < PeerQuarantine.Policy.standard.margin)
  }

  @Test("a peer pipelining huge registrations is quarantined within its first 100 MiB")
  func abuser() {
    var budgets = Budgets()
    let start = BrokerInstant.at(seconds: 1)
    var now = start
    var verdict: PeerQuarantine.Verdict?
    var sent = 0
    // 256 KiB parts as fast as libzmq decrypts them (about 0.15 ms each).
    while sent < 400 * Self.mib {
      verdict = budgets.message(256 * Self.kib, at: now)
      sent += 256 * Self.kib
      if case .quarantined = verdict { break }
      now = now + .microseconds(150)
    }
    #expect(verdict == .quarantined(until: now + .seconds(60)))
    // Its burst (16 MiB) was served, then 64 MiB over budget.
    #expect(sent > 80 * Self.mib && sent <= 82 * Self.mib, "\(sent / Self.mib) MiB")
    let later = budgets.message(100, at: now + .seconds(59))
    #expect(later == .alreadyQuarantined)
    #expect(budgets.quarantine.quarantinedUntil(Self.key, at: now) == now + .seconds(60))
    // Another key is untouched.
    let other = budgets.message(100, at: now, key: "peer:other")
    #expect(other == nil)
  }

  @Test("a quarantine lifts by itself with a clean debt; flooding again quarantines again")
  func lifts() {
    var quarantine = PeerQuarantine(
      policy: .init(margin: 1000, window: .seconds(10), duration: .seconds(60)))
    let start = BrokerInstant.at(seconds: 5)
    let within = quarantine.overBudget("k", bytes: 1000, at: start)
    let past = quarantine.overBudget("k", bytes: 1, at: start)
    #expect(within == .tolerated && past == .quarantined(until: start + .seconds(60)))
    let early = quarantine.lift(at: start + .seconds(59))
    #expect(early == [] && quarantine.isQuarantined("k", at: start + .seconds(59)))
    #expect(!quarantine.isQuarantined("k", at: start + .seconds(60)), "over at its end")
    let lifted = quarantine.lift(at: start + .seconds(60))
    #expect(lifted == ["k"] && quarantine.isEmpty && quarantine.debt("k") == 0)
    let later = start + .seconds(61)
    let again = [1000, 1].map { quarantine.overBudget("k", bytes: $0, at: later) }
    #expect(again == [.tolerated, .quarantined(until: later + .seconds(60))])
  }

  @Test("the debt is forgiven at margin / window a second")
  func forgiven() {
    let policy = PeerQuarantine.Policy(margin: 1000, window: .seconds(10), duration: .seconds(60))
    var quarantine = PeerQuarantine(policy: policy)
    let start = BrokerInstant.at(seconds: 5)
    // 5 s after 900 bytes, 500 are forgiven: 400 + 600 is not over the margin, 400 + 601 is.
    let verdicts = [
      quarantine.overBudget("k", bytes: 900, at: start),
      quarantine.overBudget("k", bytes: 600, at: start + .seconds(5)),
    ]
    #expect(verdicts == [.tolerated, .tolerated] && quarantine.debt("k") == 1000)
    let past = quarantine.overBudget("k", bytes: 1, at: start + .seconds(5))
    #expect(past != .tolerated)
    // Sustained over-budget bytes below the forgiveness rate (100 a second) never add up.
    var steady = PeerQuarantine(policy: policy)
    let steadily = (0..<1000).map { steady.overBudget("k", bytes: 99, at: start + .seconds($0)) }
    #expect(steadily.allSatisfy { $0 == .tolerated })
  }

  @Test("each connection of a quarantined key is cut once; none while not quarantined")
  func cutsOnce() {
    var quarantine = PeerQuarantine(
      policy: .init(margin: 10, window: .seconds(10), duration: .seconds(60)))
    let now = BrokerInstant.at(seconds: 1)
    let before = quarantine.shouldCut("k", connection: [1], at: now)
    _ = quarantine.overBudget("k", bytes: 11, at: now)
    let cuts = [
      quarantine.shouldCut("k", connection: [1], at: now),
      quarantine.shouldCut("k", connection: [1], at: now),
      quarantine.shouldCut("k", connection: [2], at: now),
      quarantine.shouldCut("other", connection: [3], at: now),
      quarantine.shouldCut("k", connection: [4], at: now + .seconds(60)),
    ]
    #expect(!before, "not quarantined yet")
    // Its connection once, not again, its other connection; not another key's; not after.
    #expect(cuts == [true, false, true, false, false])
  }

  @Test("a margin of 0 never quarantines")
  func disabled() {
    var quarantine = PeerQuarantine(
      policy: .init(margin: 0, window: .seconds(10), duration: .seconds(60)))
    let now = BrokerInstant.at(seconds: 1)
    let verdict = quarantine.overBudget("k", bytes: Int.max / 2, at: now)
    #expect(verdict == .tolerated)
    #expect(quarantine.isEmpty && !quarantine.policy.quarantines)
  }
}
