import BrokerDomain
import Testing

/// Pairing closed by wrong PINs: the screens are told, and someone at a screen opens it again
/// without clearing the per-address counts. Whole outcomes.
@Suite("Pairing opened at a screen")
struct PairingOpeningRulesTests {
  let round = PairingRound(nonce: [1], remoteNonce: [2], secret: [3], share: [4])
  let screenKey = Principal(id: "aa01", key: "aa01ff", role: .screen)
  let owners = ["main": "aa01ff", "den": "bb02ff"]

  /// A session closed by `PairingGuard.totalLimit` wrong PINs: five from "10.0.0.9" (locked),
  /// the rest from one address each; the time after the last.
  func closedSession() -> (PairingSession, BrokerInstant) {
    var session = PairingSession(lifetime: .seconds(60))
    var now = BrokerInstant.at(seconds: 10)
    let addresses =
      Array(repeating: "10.0.0.9", count: PairingGuard.addressLimit)
      + (0..<(PairingGuard.totalLimit - PairingGuard.addressLimit)).map { "10.0.1.\($0)" }
    for address in addresses {
      now = now + .seconds(65)  // Past the longest back-off and the last PIN's lifetime.
      _ = session.handle(
        .begin(remoteKey: address, name: "x", pin: "123456", round: round), from: address, at: now)
      _ = session.handle(.prove(remoteKey: address, proofMatches: false), from: address, at: now)
    }
    return (session, now)
  }

  @Test("the wrong PIN that closes pairing tells the screens, and the tick again every 5 s")
  func closingIsAnnounced() {
    var session = PairingSession(lifetime: .seconds(60))
    var now = BrokerInstant.at(seconds: 10)
    var last = PairingSession.Outcome(reply: .brokerKey)
    for index in 0..<PairingGuard.totalLimit {
      now = now + .seconds(65)
      let address = "10.0.0.\(index)"
      _ = session.handle(
        .begin(remoteKey: address, name: "x", pin: "123456", round: round), from: address, at: now)
      last = session.handle(.prove(remoteKey: address, proofMatches: false), from: address, at: now)
    }
    #expect(
      last
        == .init(
          reply: .refused(.wrongPIN(retryAfter: .seconds(64))),
          effects: [.saveGuard(session.guardState), .announceClosed(true)]))
    #expect(session.guardState.closed)
    #expect(session.tick(at: now + .seconds(4)).isEmpty)
    #expect(session.tick(at: now + .seconds(5)) == [.announceClosed(true)])
    #expect(session.tick(at: now + .seconds(6)).isEmpty)
  }

  @Test("opened at a screen by its key: the total starts again, every address keeps its count")
  func openedAtScreen() {
    var (session, now) = closedSession()
    let closed = session.guardState
    #expect(closed.closed && closed.totalFailures == PairingGuard.totalLimit)
    let outcome = session.openAtScreen(
      "main", by: screenKey, owners: owners, registered: ["den", "main"])
    var expected = closed
    expected.closed = false
    expected.totalFailures = 0
    #expect(
      outcome
        == .init(
          reply: .opened(screen: "main", wasClosed: true),
          effects: [.saveGuard(expected), .announceClosed(false)]))
    #expect(session.guardState == expected)
    #expect(expected.byAddress["10.0.0.9"] == PairingGuard.addressLimit, "the guesser's count")
    // The guesser's address is still refused; another address may pair.
    now = now + .seconds(65)
    guard
      case .refused(.closed(retryAfter: .some)) = session.handle(
        .begin(remoteKey: "g", name: "x", pin: "1", round: round), from: "10.0.0.9", at: now
      ).reply
    else {
      Issue.record("the guesser's address was let in")
      return
    }
    guard
      case .challenge = session.handle(
        .begin(remoteKey: "p", name: "x", pin: "1", round: round), from: "10.0.2.1", at: now
      ).reply
    else {
      Issue.record("pairing did not open")
      return
    }
    #expect(session.tick(at: now + .seconds(30)).isEmpty, "no closed notice any more")
  }

  @Test(
    "a remote, an app, or another screen's key may not open it: FORBIDDEN, nothing changes",
    arguments: [
      (Principal(id: "cc03", key: "cc03ff", role: .remote), AccessRefusal.Reason.role),
      (Principal(id: "ee05", key: "ee05ff", role: .app, screens: ["main"]), .role),
      (Principal(id: "bb02", key: "bb02ff", role: .screen), .ownedByAnother),
      (Principal(id: "ff06", key: "ff06ff", role: .screen), .ownedByAnother),
    ])
  func refused(principal: Principal, reason: AccessRefusal.Reason) {
    var (session, _) = closedSession()
    let before = session
    let outcome = session.openAtScreen(
      "main", by: principal, owners: owners, registered: ["den", "main"])
    #expect(
      outcome
        == .init(
          reply: .refused(
            .forbidden(
              AccessRefusal(
                peer: principal.id, role: principal.role, request: "open_pairing",
                screen: "main", reason: reason)))))
    #expect(session == before)
  }

  @Test("a screen no key owns is not bound; an owned screen not registered now is unknown")
  func unboundOrUnregistered() {
    var (session, _) = closedSession()
    let before = session
    #expect(
      session.openAtScreen("attic", by: screenKey, owners: owners, registered: ["attic"])
        == .init(
          reply: .refused(
            .forbidden(
              AccessRefusal(
                peer: "aa01", role: .screen, request: "open_pairing", screen: "attic",
                reason: .notBound)))))
    #expect(
      session.openAtScreen("main", by: screenKey, owners: owners, registered: ["den"])
        == .init(reply: .refused(.unknownScreen("main", known: ["den"]))))
    #expect(session == before)
  }

  @Test("while pairing is open it changes nothing (a screen cannot reset the total early)")
  func alreadyOpen() {
    var session = PairingSession(lifetime: .seconds(60))
    session.guardState.fail(from: "10.0.0.9")
    let before = session
    #expect(
      session.openAtScreen("main", by: screenKey, owners: owners, registered: ["main"])
        == .init(reply: .opened(screen: "main", wasClosed: false)))
    #expect(session == before)
  }

  @Test("the operator's open, read from the file, withdraws the notice; a closed file shows it")
  func adoptedFromTheFile() {
    var (session, now) = closedSession()
    #expect(session.adopt(.open, at: now) == [.announceClosed(false)])
    #expect(session.guardState == .open)
    #expect(session.adopt(.open, at: now).isEmpty)
    var closed = PairingGuard()
    closed.closed = true
    #expect(session.adopt(closed, at: now) == [.announceClosed(true)])
    #expect(session.tick(at: now + .seconds(1)).isEmpty)
    #expect(session.tick(at: now + .seconds(5)) == [.announceClosed(true)])
  }
}
