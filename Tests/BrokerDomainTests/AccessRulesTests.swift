import BrokerDomain
import FocusEngine
import Testing

/// Who may do what: each role's requests against owned and foreign screens, as whole outcomes.
@Suite("Access rules")
struct AccessRulesTests {
  let screenKey = Principal(id: "aa01", key: "aa01ff", role: .screen)
  let otherScreen = Principal(id: "bb02", key: "bb02ff", role: .screen)
  let remote = Principal(id: "cc03", key: "cc03ff", role: .remote)
  let kitchenRemote = Principal(id: "dd04", key: "dd04ff", role: .remote, screens: ["kitchen"])
  let app = Principal(id: "ee05", key: "ee05ff", role: .app, screens: ["main"])
  let owners = ["main": "aa01ff"]

  func forbidden(
    _ principal: Principal, _ request: String, _ screen: String?, _ reason: AccessRefusal.Reason
  ) -> BrokerDomain.Outcome {
    BrokerDomain.Outcome(
      reply: .error(
        .forbidden(
          AccessRefusal(
            peer: principal.id, role: principal.role, request: request, screen: screen,
            reason: reason))))
  }

  /// A domain with screen `main` registered by its owner.
  func registered() -> Harness {
    var harness = Harness()
    harness.register(Grid.layout(rows: 2, columns: 2))
    return harness
  }

  @Test("a remote may not register, patch or heartbeat a screen; nothing changes")
  func remoteCannotActAsScreen() {
    var harness = registered()
    let before = harness.domain.sessions
    let layout = Grid.layout(rows: 1, columns: 1)
    #expect(
      harness.domain.handle(
        .register(screen: "main", layout: layout), from: remote, owners: owners, at: harness.now)
        == forbidden(remote, "register_screen", "main", .role))
    #expect(
      harness.domain.handle(
        .heartbeat(screen: "main"), from: remote, owners: owners, at: harness.now)
        == forbidden(remote, "heartbeat", "main", .role))
    let patch = LayoutPatch([.removeItem("r0c0")])
    let cause = FocusCause(sender: "x", sequence: 1)
    #expect(
      harness.domain.handle(
        .patch(patch, screen: "main", cause: cause), from: remote, owners: owners,
        at: harness.now) == forbidden(remote, "patch_layout", "main", .role))
    #expect(harness.domain.sessions == before)
  }

  @Test("a screen key registers an unowned id and claims it; another key's id is refused")
  func screenOwnership() {
    var harness = Harness()
    let layout = Grid.layout(rows: 1, columns: 2)
    let claimed = harness.domain.handle(
      .register(screen: "den", layout: layout), from: screenKey, owners: owners, at: harness.now)
    #expect(claimed.ack?.screen == "den")
    #expect(claimed.effects.last == .bind(screen: "den", key: "aa01ff"))
    let again = harness.domain.handle(
      .register(screen: "main", layout: layout), from: screenKey, owners: owners, at: harness.now)
    #expect(again.ack?.screen == "main")
    #expect(!again.effects.contains(.bind(screen: "main", key: "aa01ff")))
    let before = harness.domain.sessions
    #expect(
      harness.domain.handle(
        .register(screen: "main", layout: Grid.layout(rows: 1, columns: 1)), from: otherScreen,
        owners: owners, at: harness.now)
        == forbidden(otherScreen, "register_screen", "main", .ownedByAnother))
    #expect(harness.domain.sessions == before)
  }

  @Test("a screen key may claim at most screensPerKey ids")
  func claimLimit() {
    var harness = Harness()
    var owners: [String: String] = [:]
    for index in 0..<harness.domain.screensPerKey { owners["s\(index)"] = screenKey.key }
    #expect(
      harness.domain.handle(
        .register(screen: "one-more", layout: Grid.layout(rows: 1, columns: 1)), from: screenKey,
        owners: owners, at: harness.now)
        == forbidden(
          screenKey, "register_screen", "one-more",
          .tooManyScreens(limit: harness.domain.screensPerKey)))
  }

  @Test("a remote's input goes to the screens it is allowed; hello lists only those")
  func remoteScope() {
    var harness = registered()
    let press = RemoteInput.button(.right, .down, at: 0)
    let cause = FocusCause(sender: "cc03", sequence: 1)
    let moved = harness.domain.handle(
      .input(press, screen: "main", remote: "r", cause: cause), from: remote, owners: owners,
      at: harness.now)
    #expect(moved.ack?.focused == "r0c1")
    #expect(
      harness.domain.handle(
        .input(press, screen: "main", remote: "r", cause: cause), from: kitchenRemote,
        owners: owners, at: harness.now)
        == forbidden(kitchenRemote, "input", "main", .notBound))
    // Input naming no screen resolves to the only session before it is checked.
    #expect(
      harness.domain.handle(
        .input(press, screen: nil, remote: "r", cause: cause), from: kitchenRemote,
        owners: owners, at: harness.now)
        == forbidden(kitchenRemote, "input", "main", .notBound))
    let welcome = BrokerDomain.Outcome(
      reply: .welcome(Welcome(epoch: 7, name: "test", screens: [])))
    #expect(
      harness.domain.handle(.hello, from: kitchenRemote, owners: owners, at: harness.now) == welcome
    )
    #expect(
      harness.domain.handle(.hello, from: remote, owners: owners, at: harness.now)
        == BrokerDomain.Outcome(reply: .welcome(Welcome(epoch: 7, name: "test", screens: ["main"])))
    )
    #expect(
      harness.domain.handle(.hello, from: otherScreen, owners: owners, at: harness.now) == welcome)
  }

  @Test("an app patches and focuses the screens it is bound to, and registers none")
  func appScope() {
    var harness = registered()
    let cause = FocusCause(sender: "ee05", sequence: 1)
    let focused = harness.domain.handle(
      .focus(.item("r1c1"), screen: "main", cause: cause), from: app, owners: owners,
      at: harness.now)
    #expect(focused.ack?.focused == "r1c1")
    #expect(
      harness.domain.handle(
        .register(screen: "main", layout: Grid.layout(rows: 1, columns: 1)), from: app,
        owners: owners, at: harness.now) == forbidden(app, "register_screen", "main", .role))
    #expect(
      harness.domain.handle(
        .input(.button(.right, .down, at: 0), screen: "main", remote: "a", cause: cause),
        from: app, owners: owners, at: harness.now) == forbidden(app, "input", "main", .role))
    let unbound = Principal(id: "ff06", key: "ff06ff", role: .app)
    #expect(
      harness.domain.handle(
        .focus(.item("r0c0"), screen: "main", cause: cause), from: unbound, owners: owners,
        at: harness.now) == forbidden(unbound, "focus_request", "main", .notBound))
  }

  @Test("a local peer may do everything, as before roles")
  func localPeer() {
    var harness = registered()
    let outcome = harness.domain.handle(
      .register(screen: "main", layout: Grid.layout(rows: 1, columns: 2)), from: .local,
      owners: owners, at: harness.now)
    #expect(outcome.ack?.screen == "main")
    #expect(!outcome.effects.contains { if case .bind = $0 { true } else { false } })
  }
}

/// The wrong-PIN guard: per address, in all, busy pairings, decay.
@Suite("Pairing guard rules")
struct PairingGuardRulesTests {
  let round = PairingRound(nonce: [1], remoteNonce: [2], secret: [3], share: [4])
  let start = BrokerInstant.at(seconds: 10)

  @Test("a second key's pairing is refused busy; the first keeps its PIN")
  func busy() {
    var session = PairingSession(lifetime: .seconds(60))
    _ = session.handle(
      .begin(remoteKey: "person", name: "phone", pin: "123456", round: round), from: "10.0.0.2",
      at: start)
    let stranger = session.handle(
      .begin(remoteKey: "stranger", name: "x", pin: "000000", round: round), from: "10.0.0.9",
      at: start + .seconds(10))
    #expect(stranger == .init(reply: .refused(.busy(retryAfter: .seconds(50)))))
    #expect(session.pending?.pin == "123456" && session.pending?.remoteKey == "person")
  }

  @Test("five wrong PINs lock an address; ten in all close pairing until opened")
  func limits() {
    var session = PairingSession(lifetime: .seconds(60))
    var now = start
    func attempt(from address: String) -> PairingSession.Outcome {
      now = now + .seconds(65)  // Past the longest back-off and the last PIN's lifetime.
      _ = session.handle(
        .begin(remoteKey: address, name: "x", pin: "123456", round: round), from: address, at: now)
      return session.handle(.prove(remoteKey: address, proofMatches: false), from: address, at: now)
    }
    for _ in 0..<PairingGuard.addressLimit {
      guard case .refused(.wrongPIN) = attempt(from: "a").reply else {
        Issue.record("expected a wrong PIN")
        return
      }
    }
    guard case .refused(.closed(let wait?)) = attempt(from: "a").reply else {
      Issue.record("the address was not locked")
      return
    }
    #expect(wait > .seconds(3000) && wait <= PairingGuard.decay, "until one failure decays")
    #expect(session.guardState.byAddress["a"] == 5 && !session.guardState.closed)
    var last = PairingSession.Outcome(reply: .brokerKey)
    for index in 0..<(PairingGuard.totalLimit - PairingGuard.addressLimit) {
      last = attempt(from: "b\(index)")
    }
    #expect(session.guardState.closed && session.pending == nil)
    #expect(last.effects.contains(.saveGuard(session.guardState)))
    #expect(last.effects.contains(.announceClosed(true)))
    #expect(attempt(from: "c").reply == .refused(.closed(retryAfter: nil)))
    session.guardState = .open
    let reopened = session.handle(
      .begin(remoteKey: "c", name: "x", pin: "123456", round: round), from: "c", at: now)
    guard case .challenge = reopened.reply else {
      Issue.record("pairing did not open again")
      return
    }
  }

  @Test("failures decay one an hour")
  func decay() {
    var state = PairingGuard()
    for _ in 0..<3 { state.fail(from: "a") }
    state.fail(from: "b")
    state.forgive(1)
    #expect(state.byAddress == ["a": 2] && state.totalFailures == 3)
    state.forgive(5)
    #expect(state.byAddress.isEmpty && state.totalFailures == 0)
  }
}
