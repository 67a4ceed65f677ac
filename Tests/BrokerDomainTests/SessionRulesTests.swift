import BrokerDomain
import FocusEngine
import Testing

/// Registration, input, publications, dead screens: the broker's session rules in memory.
@Suite("Domain: sessions, replies and publications")
struct SessionRulesTests {
  @Test("hello names the epoch, the broker and the registered screens, sorted")
  func hello() {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 2), screen: "tv-b")
    harness.register(Grid.layout(rows: 1, columns: 2), screen: "tv-a")
    #expect(
      harness.send(.hello).reply
        == .welcome(Welcome(epoch: 7, name: "test", screens: ["tv-a", "tv-b"])))
  }

  @Test("a registration is acknowledged at seq 1 and published whole; replacing it bumps seq")
  func register() throws {
    var harness = Harness()
    let first = harness.register(Grid.layout(rows: 1, columns: 3))
    #expect(first.reply == .ack(Acknowledgement(screen: "main", seq: 1, focused: "r0c0")))
    let session = try #require(harness.domain.sessions["main"])
    var snapshot = SessionSnapshot(
      screen: "main", epoch: 7, seq: 1, focus: session.focus, parallax: session.parallax)
    // The first focus is announced whole.
    snapshot.announcement = Announcement(
      parts: [
        AnnouncementPart(.label, "Row 0 Col 0"), AnnouncementPart(.value, "not selected"),
        AnnouncementPart(.trait, "button"), AnnouncementPart(.position, "1 of 3"),
      ], interrupt: true)
    #expect(first.effects == [.publish(.snapshot(snapshot))])
    let again = harness.register(Grid.layout(rows: 1, columns: 2))
    #expect(again.ack?.seq == 2)
    #expect(harness.domain.sessions["main"]?.focus.layout.items.count == 2)
  }

  @Test("invalid layouts are refused with their cause and change nothing")
  func invalidLayouts() {
    var harness = Harness()
    var duplicate = Grid.layout(rows: 1, columns: 2)
    duplicate.items[1].id = "r0c0"
    guard case .invalidLayout(let problem) = harness.register(duplicate).error else {
      Issue.record("a duplicate id was accepted")
      return
    }
    #expect(problem.path == "items[1].id")
    var small = BrokerDomain(epoch: 1, name: "t", maxItems: 2)
    let tooMany = small.handle(
      .register(screen: "main", layout: Grid.layout(rows: 1, columns: 3)), at: .origin)
    #expect(tooMany.reply == .error(.tooManyItems(count: 3, limit: 2)))
    #expect(harness.domain.sessions.isEmpty && small.sessions.isEmpty)
  }

  @Test("a move publishes one change with the changed states, and the ack says the same")
  func move() throws {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 3))
    let outcome = harness.key(.right)
    let ack = try #require(outcome.ack)
    #expect(ack.seq == 2 && ack.focused == "r0c1" && !ack.editingText)
    guard case .change(let change) = try #require(outcome.publications.first) else {
      Issue.record("no state change published: \(outcome.effects)")
      return
    }
    #expect(outcome.publications.count == 1)
    #expect(change.seq == 2 && change.focused == "r0c1" && change.epoch == 7)
    #expect(
      change.changed == [
        ItemStateChange(id: "r0c0", state: .unfocused),
        ItemStateChange(id: "r0c1", state: .focused),
      ])
    #expect(change.effects == ack.effects)
    #expect(change.cause == FocusCause(sender: "t", sequence: 1))
  }

  @Test("input without a screen goes to the only one; with none or several it is refused")
  func screenChoice() {
    var harness = Harness()
    #expect(harness.key(.right, screen: nil).error == .noScreenRegistered)
    harness.register(Grid.layout(rows: 1, columns: 3), screen: "a")
    #expect(harness.key(.right, screen: nil).ack?.focused == "r0c1")
    harness.register(Grid.layout(rows: 1, columns: 3), screen: "b")
    #expect(harness.key(.right, screen: nil).error == .ambiguousScreen(known: ["a", "b"]))
    #expect(harness.key(.right, screen: "c").error == .unknownScreen("c", known: ["a", "b"]))
  }

  @Test("text while no text field has focus is refused, with the engine's reason")
  func noTextField() {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 2))
    let cause = harness.cause()
    let outcome = harness.send(
      .input(.text(.set("hi")), screen: "main", remote: "r", cause: cause))
    guard case .noTextField(let reason) = outcome.error else {
      Issue.record("text was accepted without a text field: \(outcome.reply)")
      return
    }
    #expect(!reason.isEmpty)
    // Only the refusal's announcement is published (AnnouncementRulesTests); nothing persisted.
    #expect(outcome.effects.count == 1)
    #expect(!outcome.effects.contains { if case .persist = $0 { true } else { false } })
  }

  @Test("a session lives through the grace period, then input for it gets screenGone")
  func grace() {
    var harness = Harness()
    harness.now = .at(seconds: 10)
    harness.register(Grid.layout(rows: 1, columns: 2), screen: "tv")
    harness.now = .at(seconds: 20)
    #expect(
      harness.send(.heartbeat(screen: "tv")).ack
        == Acknowledgement(
          screen: "tv", seq: 1, focused: nil))
    // 25 s after the last heartbeat: still within 30 s.
    harness.now = .at(seconds: 45)
    #expect(harness.send(.expire(grace: .seconds(30))) == .init(reply: .expired(screens: [])))
    #expect(harness.key(.right, screen: "tv").ack != nil)
    // 31 s after the last sign of life.
    harness.now = .at(seconds: 51)
    #expect(harness.send(.expire(grace: .seconds(30))) == .init(reply: .expired(screens: ["tv"])))
    #expect(harness.key(.right, screen: "tv").error == .screenGone("tv"))
    #expect(harness.send(.snapshot(screen: "tv")).error == .screenGone("tv"))
    // The screen comes back: registering again revives the session.
    harness.register(Grid.layout(rows: 1, columns: 2), screen: "tv")
    #expect(harness.key(.right, screen: "tv").ack != nil)
  }

  @Test("a snapshot request answers the whole state and counts as a sign of life")
  func snapshot() throws {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 2))
    _ = harness.key(.right)
    harness.now = .at(seconds: 100)
    guard case .snapshot(let snapshot) = harness.send(.snapshot(screen: "main")).reply else {
      Issue.record("no snapshot")
      return
    }
    #expect(snapshot.seq == 2 && snapshot.focus.focused == "r0c1")
    #expect(harness.domain.lastSeen["main"] == .at(seconds: 100))
  }
}
