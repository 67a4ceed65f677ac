import BrokerDomain
import Testing

@Suite("Domain: pairing session rules")
struct PairingSessionTests {
  let round = PairingRound(
    nonce: [UInt8](repeating: 1, count: 32), remoteNonce: [UInt8](repeating: 2, count: 32),
    secret: [UInt8](repeating: 3, count: 32), share: [UInt8](repeating: 4, count: 32))
  let another = PairingRound(
    nonce: [UInt8](repeating: 5, count: 32), remoteNonce: [UInt8](repeating: 6, count: 32),
    secret: [UInt8](repeating: 7, count: 32), share: [UInt8](repeating: 8, count: 32))
  let start = BrokerInstant.at(seconds: 1)

  @Test("back-off: 1 s doubling per failure, capped at 64 s")
  func backoffSequence() {
    let waits = (1...9).map { PairingSession.backoff(afterFailures: $0) }
    #expect(waits == [1, 2, 4, 8, 16, 32, 64, 64, 64].map { Duration.seconds($0) })
    #expect(PairingSession.backoff(afterFailures: 0) == .zero)
  }

  @Test("the right proof pairs; a wrong one blocks every attempt until the back-off ends")
  func wrongThenRight() {
    var session = PairingSession()
    guard
      case .challenge(let pending) = session.begin(
        remoteKey: "key", name: "phone\u{7}", at: start, pin: "1234", round: round)
    else {
      Issue.record("begin did not challenge")
      return
    }
    #expect(pending.pin == "1234" && pending.name == "phone")
    #expect(pending.expiresAt == start + .seconds(120))
    let wrong = session.prove(remoteKey: "key", proofMatches: false, at: start + .nanoseconds(1))
    #expect(wrong == .wrongPIN(retryAfter: .seconds(1)))
    // During the back-off even the right PIN is refused, and so is a new pairing.
    let early = session.prove(remoteKey: "key", proofMatches: true, at: start + .milliseconds(500))
    #expect(early == .backoff(retryAfter: .milliseconds(500) + .nanoseconds(1)))
    let other = session.begin(
      remoteKey: "other", name: "x", at: start + .milliseconds(500), pin: "0000", round: round)
    #expect(other == .backoff(retryAfter: .milliseconds(500) + .nanoseconds(1)))
    // The wrong attempt used the round up: a second confirmation in it is refused (one
    // guess per round), until the remote asks for the next round, same PIN.
    let reused = session.prove(remoteKey: "key", proofMatches: true, at: start + .seconds(2))
    #expect(reused == .roundUsed)
    guard
      case .challenge(let next) = session.nextRound(
        remoteKey: "key", at: start + .seconds(2), round: another)
    else {
      Issue.record("next round refused")
      return
    }
    #expect(next.pin == "1234" && next.round == another && next.expiresAt == pending.expiresAt)
    let right = session.prove(remoteKey: "key", proofMatches: true, at: start + .seconds(2))
    #expect(right == .paired(next))
    #expect(session.failures == 0 && session.pending == nil)
  }

  @Test("consecutive wrong PINs double the back-off")
  func doubling() {
    var session = PairingSession()
    var now = start
    _ = session.begin(remoteKey: "key", name: "a", at: now, pin: "1234", round: round)
    var waits: [Duration] = []
    for _ in 0..<3 {
      if case .wrongPIN(let wait) = session.prove(remoteKey: "key", proofMatches: false, at: now) {
        waits.append(wait)
        now = now + wait
      }
      _ = session.nextRound(remoteKey: "key", at: now, round: another)
    }
    #expect(waits == [.seconds(1), .seconds(2), .seconds(4)])
  }

  @Test("a proof for another key, after expiry, or without a pairing is refused")
  func noPairing() {
    var session = PairingSession(lifetime: .seconds(10))
    #expect(session.prove(remoteKey: "key", proofMatches: true, at: .origin) == .noPairing)
    _ = session.begin(remoteKey: "key", name: "a", at: .origin, pin: "1234", round: round)
    #expect(session.prove(remoteKey: "someone-else", proofMatches: true, at: .origin) == .noPairing)
    #expect(session.nextRound(remoteKey: "someone-else", at: .origin, round: another) == nil)
    let early = session.expire(at: .origin + (.seconds(10) - .nanoseconds(1)))
    let late = session.expire(at: .origin + .seconds(10))
    #expect(!early && late)
    #expect(
      session.prove(remoteKey: "key", proofMatches: true, at: .origin + .seconds(11)) == .noPairing)
    #expect(session.nextRound(remoteKey: "key", at: .origin + .seconds(11), round: another) == nil)
  }

  @Test("the next round is refused during a back-off, like any attempt")
  func nextRoundBacksOff() {
    var session = PairingSession()
    _ = session.begin(remoteKey: "key", name: "a", at: start, pin: "1234", round: round)
    _ = session.prove(remoteKey: "key", proofMatches: false, at: start)
    let early = session.nextRound(remoteKey: "key", at: start + .milliseconds(250), round: another)
    #expect(early == .backoff(retryAfter: .milliseconds(750)))
    #expect(session.pending?.round == nil)
  }

  @Test("names are kept printable, short and never empty")
  func names() {
    #expect(PairingSession.cleanName("") == "remote")
    #expect(PairingSession.cleanName("a\u{1B}[2Jb") == "a[2Jb")
    #expect(PairingSession.cleanName(String(repeating: "x", count: 100)).count == 40)
  }
}

@Suite("Domain: flood control and revocation")
struct FloodAndRevokeTests {
  @Test("throttle: a burst passes, then refusals until tokens refill")
  func throttle() {
    var throttle = PeerThrottle(rate: 100, burst: 10)
    let peer: [UInt8] = [1, 2, 3]
    let now = BrokerInstant.at(seconds: 1)
    let burst = (0..<15).map { _ in throttle.admit(peer, at: now) }
    #expect(burst.filter { $0 }.count == 10)
    #expect(throttle.refused(peer) == 5)
    let other = throttle.admit([9], at: now)
    #expect(other, "another peer has its own bucket")
    let refilled = throttle.admit(peer, at: now + .milliseconds(10))
    let spent = throttle.admit(peer, at: now + .milliseconds(10))
    #expect(refilled && !spent, "one token after 10 ms at 100/s")
  }

  @Test("over budget: the first and every 1000th refusal is answered, the rest dropped")
  func admission() {
    var throttle = PeerThrottle(rate: 1, burst: 1)
    let now = BrokerInstant.at(seconds: 1)
    let decisions = (0..<1003).map { _ in throttle.admission([1], at: now) }
    #expect(decisions[0] == .serve)
    #expect(decisions[1] == .refuse)
    #expect(decisions[2...1000].allSatisfy { $0 == .drop })
    #expect(decisions[1001] == .refuse && decisions[1002] == .drop)
    #expect(throttle.retryAfter == .seconds(1) + .milliseconds(1))
  }

  @Test("a huge message puts its peer in byte debt: refused until repaid, others unaffected")
  func byteBudget() {
    var throttle = PeerThrottle(rate: 1000, burst: 1000, byteRate: 1000, byteBurst: 4000)
    let start = BrokerInstant.at(seconds: 1)
    let first = throttle.admit([1], at: start)
    throttle.charge([1], bytes: 10_000)  // 6,000 bytes over its burst.
    let inDebt = throttle.admit([1], at: start + .seconds(5))
    let other = throttle.admit([2], at: start + .seconds(5))
    let repaid = throttle.admit([1], at: start + .seconds(6))
    #expect(first)
    #expect(!inDebt, "still 1,000 bytes in debt after 5 s")
    #expect(other, "another peer has its own budget")
    #expect(repaid, "repaid at 1,000 bytes a second")
  }

  @Test("a revoke cuts only subscribers it removed, once")
  func revocation() {
    var revocation = Revocation()
    revocation.subscribed(.peer(id: "a"))
    revocation.subscribed(.peer(id: "b"))
    revocation.subscribed(.local)
    let removed = revocation.allowListChanged(before: ["a", "b", "c"], after: ["b"])
    #expect(removed == ["a", "c"])
    #expect(revocation.takeCut() == ["a"], "c never subscribed")
    #expect(revocation.takeCut().isEmpty, "cut once")
    #expect(revocation.subscribers == ["b"])
  }
}

@Suite("Domain: pairing requests, replies and effects")
struct PairingRequestTests {
  let round = PairingRound(
    nonce: [UInt8](repeating: 1, count: 32), remoteNonce: [UInt8](repeating: 2, count: 32),
    secret: [UInt8](repeating: 3, count: 32), share: [UInt8](repeating: 4, count: 32))
  let next = PairingRound(
    nonce: [UInt8](repeating: 5, count: 32), remoteNonce: [UInt8](repeating: 6, count: 32),
    secret: [UInt8](repeating: 7, count: 32), share: [UInt8](repeating: 8, count: 32))

  @Test("a probe starts nothing; a request shows the PIN; the right proof allows and hides it")
  func flow() {
    var session = PairingSession(lifetime: .seconds(60))
    let now = BrokerInstant.at(seconds: 5)
    #expect(session.handle(.probe, at: now) == .init(reply: .brokerKey))
    #expect(session.pending == nil)
    let begun = session.handle(
      .begin(remoteKey: "key", name: "phone", pin: "4321", round: round), at: now)
    guard case .challenge(let pending, let expiresIn) = begun.reply else {
      Issue.record("no challenge: \(begun)")
      return
    }
    #expect(expiresIn == .seconds(60) && pending.pin == "4321")
    #expect(begun.effects == [.showPIN(pending, expiresIn: .seconds(60))])
    let wrong = session.handle(
      .prove(remoteKey: "key", proofMatches: false), from: "10.0.0.7", at: now)
    var counted = PairingGuard()
    counted.fail(from: "10.0.0.7")
    #expect(
      wrong
        == .init(
          reply: .refused(.wrongPIN(retryAfter: .seconds(1))), effects: [.saveGuard(counted)])
    )
    let used = session.handle(.prove(remoteKey: "key", proofMatches: true), at: now + .seconds(1))
    #expect(used == .init(reply: .refused(.roundUsed)))
    let again = session.handle(.nextRound(remoteKey: "key", round: next), at: now + .seconds(1))
    guard case .challenge(let second, let left) = again.reply else {
      Issue.record("no second round: \(again)")
      return
    }
    #expect(second.pin == "4321" && second.round == next && left == .seconds(59))
    #expect(again.effects.isEmpty, "the PIN stays on screen")
    let right = session.handle(
      .prove(remoteKey: "key", proofMatches: true), at: now + .seconds(1))
    #expect(right.reply == .paired(second))
    // The total starts again after a success; the address keeps its count until it decays.
    counted.totalFailures = 0
    #expect(
      right.effects == [.allow(remoteKey: "key", name: "phone"), .hidePIN, .saveGuard(counted)])
  }

  @Test("an expired pairing hides its PIN once, on the tick after it expires")
  func expiry() {
    var session = PairingSession(lifetime: .seconds(60))
    _ = session.handle(.begin(remoteKey: "k", name: "", pin: "1", round: round), at: .origin)
    #expect(session.tick(at: .at(seconds: 59)).isEmpty)
    #expect(session.tick(at: .at(seconds: 60)) == [.hidePIN])
    #expect(session.tick(at: .at(seconds: 61)).isEmpty)
    #expect(
      session.handle(.prove(remoteKey: "k", proofMatches: true), at: .at(seconds: 61)).reply
        == .refused(.noPairing))
    #expect(
      session.handle(.nextRound(remoteKey: "k", round: next), at: .at(seconds: 61)).reply
        == .refused(.noPairing))
  }
}
