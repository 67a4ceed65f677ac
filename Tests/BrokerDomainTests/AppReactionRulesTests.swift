import BrokerDomain
import FocusEngine
import Testing

/// An app's reactions and the inputs held for them: `select right select` opens a view and
/// moves inside it, as on tvOS.
@Suite("Domain: app reactions hold the inputs after an activation")
struct AppReactionRulesTests {
  /// A click (down, then up 40 ms later on the remote's clock) at `time` seconds.
  static func click(_ harness: inout Harness, _ button: RemoteButton, at time: UInt64)
    -> BrokerDomain.Outcome
  {
    _ = harness.key(button, .down, time: time * 1_000_000_000)
    return harness.key(button, .up, time: time * 1_000_000_000 + 40_000_000)
  }

  /// The detail view an app opens: a trapping group of two items, focused.
  static let openDetail: [AppCommand] = [
    .patch(
      LayoutPatch(
        [
          .addGroup(Group(id: "detail", trapsFocus: true), parent: nil),
          .addItem(
            Item(id: "play", frame: Rect(x: 100, y: 600, width: 300, height: 100)),
            group: "detail"),
          .addItem(
            Item(id: "more", frame: Rect(x: 500, y: 600, width: 300, height: 100)),
            group: "detail"),
        ], focus: .group("detail")))
  ]

  static func withApp() -> Harness {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 3))
    _ = harness.send(.snapshot(screen: "main", app: true))
    return harness
  }

  static func released(_ outcome: BrokerDomain.Outcome) -> [UInt64: BrokerReply] {
    var replies: [UInt64: BrokerReply] = [:]
    for case .release(let token, let reply) in outcome.effects { replies[token] = reply }
    return replies
  }

  @Test("the activation and the inputs after it wait; the reaction applies first, then them")
  func selectRightSelect() throws {
    var harness = Self.withApp()
    let select = Self.click(&harness, .select, at: 1)
    guard case .held(let selectToken, "main") = select.reply else {
      Issue.record("the activation was answered at once: \(select.reply)")
      return
    }
    // The activation itself is published at once: that is what the app reacts to.
    #expect(select.publications.count == 1)
    let activationSeq = try #require(harness.domain.sessions["main"]?.seq)
    _ = harness.key(.right, .down, time: 2_000_000_000)
    let rightUp = harness.key(.right, .up, time: 2_040_000_000)
    let second = Self.click(&harness, .select, at: 3)
    guard case .held = rightUp.reply, case .held = second.reply else {
      Issue.record("inputs after the activation were applied before the app reacted")
      return
    }
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c0")
    let cause = harness.cause()
    let reaction = harness.send(
      .react(
        AppReaction(stateSeq: activationSeq, commands: Self.openDetail), screen: "main",
        cause: cause))
    let replies = Self.released(reaction)
    // The activation's requester sees the focus after the reaction.
    guard case .ack(let selectAck) = replies[selectToken] else {
      Issue.record("the activation's reply was not released: \(reaction.effects)")
      return
    }
    #expect(selectAck.focused == "play")
    #expect(selectAck.effects.contains(.activated("r0c0")))
    // `right` moved inside the view, and the second select activated `more` — not a double
    // tap, since another button came between.
    let session = try #require(harness.domain.sessions["main"])
    #expect(session.focus.focused == "more")
    let effects = reaction.publications.flatMap { publication -> [FocusEffect] in
      if case .change(let change) = publication { change.effects } else { [] }
    }
    #expect(effects.contains(.activated("more")))
    #expect(!effects.contains(.doubleTap(.select)))
    // The second activation holds again: its reply waits for the app's next reaction.
    #expect(session.hold != nil)
    #expect(reaction.ack?.focused == "more")
  }

  @Test("with no reaction, the held inputs go on at the deadline, in order")
  func deadline() throws {
    var harness = Self.withApp()
    guard case .held(let selectToken, _) = Self.click(&harness, .select, at: 1).reply else {
      Issue.record("not held")
      return
    }
    _ = harness.key(.right, .down, time: 2_000_000_000)
    #expect(harness.domain.nextHoldDeadline == harness.now + .milliseconds(250))
    #expect(harness.domain.releaseExpiredHolds(at: harness.now + .milliseconds(249)).isEmpty)
    let released = harness.domain.releaseExpiredHolds(at: harness.now + .milliseconds(250))
    #expect(released.map(\.screen) == ["main"])
    let tokens = released[0].effects.compactMap { effect -> UInt64? in
      if case .release(let token, _) = effect { token } else { nil }
    }
    #expect(tokens.first == selectToken)
    #expect(tokens.count == 2)
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c1")
    #expect(harness.domain.nextHoldDeadline == nil)
  }

  @Test("an input after the deadline releases what was held first, then applies")
  func lateInput() {
    var harness = Self.withApp()
    _ = Self.click(&harness, .select, at: 1)
    _ = harness.key(.right, .down, time: 2_000_000_000)
    harness.now = harness.now + .seconds(1)
    let late = harness.key(.right, .up, time: 2_040_000_000)
    #expect(late.ack != nil)
    #expect(Self.released(late).count == 2)
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c1")
  }

  @Test("a reaction to a frame from before the activation does not release the hold")
  func staleReaction() throws {
    var harness = Self.withApp()
    _ = Self.click(&harness, .select, at: 1)
    let seq = try #require(harness.domain.sessions["main"]?.seq)
    let cause = harness.cause()
    let stale = harness.send(
      .react(AppReaction(stateSeq: seq - 1, commands: []), screen: "main", cause: cause))
    #expect(Self.released(stale).isEmpty)
    #expect(harness.domain.sessions["main"]?.hold != nil)
  }

  @Test("a screen without an app answers an activation at once")
  func noApp() {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 3))
    #expect(Self.click(&harness, .select, at: 1).ack?.effects.contains(.activated("r0c0")) == true)
    #expect(harness.domain.holding.isEmpty)
  }

  @Test("a refused command is the reply; those before it stay, and the hold is released")
  func refusedCommand() throws {
    var harness = Self.withApp()
    _ = Self.click(&harness, .select, at: 1)
    let seq = try #require(harness.domain.sessions["main"]?.seq)
    let cause = harness.cause()
    let outcome = harness.send(
      .react(
        AppReaction(stateSeq: seq, commands: Self.openDetail + [.focus(.item("nope"))]),
        screen: "main", cause: cause))
    guard case .focusDenied = outcome.error else {
      Issue.record("expected a focus refusal, got \(outcome.reply)")
      return
    }
    #expect(harness.domain.sessions["main"]?.focus.focused == "play")
    #expect(Self.released(outcome).count == 1)
  }

  @Test("an app may replace the layout in its reaction")
  func replaceLayout() throws {
    var harness = Self.withApp()
    _ = Self.click(&harness, .select, at: 1)
    let seq = try #require(harness.domain.sessions["main"]?.seq)
    let cause = harness.cause()
    let page = Grid.layout(rows: 2, columns: 1)
    let outcome = harness.send(
      .react(
        AppReaction(stateSeq: seq, commands: [.replaceLayout(page)]), screen: "main",
        cause: cause))
    #expect(outcome.ack != nil)
    #expect(harness.domain.sessions["main"]?.focus.layout.items.count == 2)
  }

  @Test("only the screen's own key or a bound app may react or attach as its app")
  func access() {
    let domain = Self.withApp().domain
    let cause = FocusCause(sender: "t", sequence: 1)
    let react = BrokerRequest.react(
      AppReaction(stateSeq: 1, commands: []), screen: "main", cause: cause)
    let remote = Principal(id: "phone", key: "aa", role: .remote, screens: nil)
    let app = Principal(id: "app", key: "bb", role: .app, screens: ["main"])
    let stranger = Principal(id: "other", key: "cc", role: .app, screens: ["other"])
    let screen = Principal(id: "tv", key: "dd", role: .screen, screens: nil)
    let owners = ["main": "dd"]
    #expect(domain.access(react, from: app, owners: owners) == .allowed)
    #expect(domain.access(react, from: screen, owners: owners) == .allowed)
    for (principal, request) in [
      (remote, react), (stranger, react), (remote, .snapshot(screen: "main", app: true)),
    ] {
      guard case .forbidden = domain.access(request, from: principal, owners: owners) else {
        Issue.record("\(principal.id) may \(request.kindName)")
        continue
      }
    }
    #expect(domain.access(.snapshot(screen: "main"), from: remote, owners: owners) == .allowed)
  }

  @Test(
    "an app that lets a hold run out is presumed gone: the next activation is answered at once, until it reacts again"
  )
  func departedApp() throws {
    var harness = Self.withApp()
    guard case .held = Self.click(&harness, .select, at: 1).reply else {
      Issue.record("not held")
      return
    }
    _ = harness.domain.releaseExpiredHolds(at: harness.now + .milliseconds(250))
    #expect(harness.domain.sessions["main"]?.hasApp == false)
    // The next activation does not wait 250 ms for an app that is not there.
    let second = Self.click(&harness, .select, at: 2)
    #expect(second.ack?.effects.contains(.activated("r0c0")) == true, "\(second.reply)")
    // A late reaction says the app is alive: activations wait for it again.
    let seq = try #require(harness.domain.sessions["main"]?.seq)
    let cause = harness.cause()
    _ = harness.send(.react(AppReaction(stateSeq: seq, commands: []), screen: "main", cause: cause))
    #expect(harness.domain.sessions["main"]?.hasApp == true)
    guard case .held = Self.click(&harness, .select, at: 3).reply else {
      Issue.record("an app that reacted again was not waited for")
      return
    }
  }

  @Test("an input arriving after a missed deadline also marks the app gone")
  func lateInputMarksAppGone() {
    var harness = Self.withApp()
    _ = Self.click(&harness, .select, at: 1)
    harness.now = harness.now + .seconds(1)
    _ = harness.key(.right, .down, time: 2_000_000_000)
    #expect(harness.domain.sessions["main"]?.hasApp == false)
    // Attaching again (a snapshot as the app) restores it.
    _ = harness.send(.snapshot(screen: "main", app: true))
    #expect(harness.domain.sessions["main"]?.hasApp == true)
  }

  @Test(
    "a registration that says an app reacts holds from the first activation; the heartbeat's reply tells the screen"
  )
  func registeredWithApp() {
    var harness = Harness()
    _ = harness.send(.register(screen: "main", layout: Grid.layout(rows: 1, columns: 3), app: true))
    #expect(harness.send(.heartbeat(screen: "main")).ack?.app == true)
    guard case .held = Self.click(&harness, .select, at: 1).reply else {
      Issue.record("a screen registered with an app answered the activation at once")
      return
    }
    var plain = Harness()
    plain.register(Grid.layout(rows: 1, columns: 3))
    #expect(plain.send(.heartbeat(screen: "main")).ack?.app == false)
  }
}
