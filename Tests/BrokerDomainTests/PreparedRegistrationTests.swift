import BrokerDomain
import FocusEngine
import Testing

/// A registration prepared off the loop (`prepareRegistration`) and applied on it gives the
/// whole outcome and the whole domain the full path (`handle(.register…)`) gives, and when the
/// screen's session or record changed in between, the full path runs on the session as it is
/// now.
@Suite("Domain: registrations prepared off the loop")
struct PreparedRegistrationTests {
  let screenKey = Principal(id: "aa01", key: "aa01ff", role: .screen)

  /// The full path and the prepared one from the same domain, `layout` registered as `screen`
  /// by `principal`; both outcomes and both domains after them must be equal, and the prepared
  /// result used.
  func expectSame(
    _ harness: Harness, _ layout: Layout, screen: String = "main", app: Bool = false,
    principal: Principal = .local, owners: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var full = harness.domain
    let expected = full.handle(
      .register(screen: screen, layout: layout, app: app), from: principal, owners: owners,
      at: harness.now)
    var domain = harness.domain
    let prepared = BrokerDomain.prepareRegistration(
      layout, app: app, on: domain.registrationBase(for: screen), at: harness.now)
    let applied = domain.handle(prepared, from: principal, owners: owners, at: harness.now)
    #expect(applied.prepared, "the prepared result was not used", sourceLocation: sourceLocation)
    expectOutcome(applied.outcome, expected, sourceLocation: sourceLocation)
    #expect(domain == full, "the domain's state differs", sourceLocation: sourceLocation)
  }

  @Test("a new screen: the same outcome and state as the full path")
  func newScreen() {
    expectSame(Harness(), Grid.layout(rows: 2, columns: 3))
  }

  @Test("a new screen with an app, persisting: the same outcome (persist first) and state")
  func newScreenWithApp() {
    expectSame(Harness(records: [:]), Grid.layout(rows: 2, columns: 3), app: true)
  }

  @Test("a screen restored from its record: the same outcome and state")
  func restored() {
    let record = SessionRecord(screen: "main", focused: "r1c2", selected: ["r0c1"])
    expectSame(Harness(records: ["main": record]), Grid.layout(rows: 2, columns: 3))
  }

  @Test("a layout replaced on a session whose focus moved: the same outcome and state")
  func replaced() {
    var harness = Harness(records: [:])
    harness.register(Grid.layout(rows: 2, columns: 3))
    _ = harness.key(.right)
    _ = harness.key(.down)
    expectSame(harness, Grid.layout(rows: 3, columns: 2))
  }

  @Test("a refused layout: the same refusal, nothing changes")
  func refused() {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 2))
    var invalid = Grid.layout(rows: 1, columns: 2)
    invalid.items[1].id = "r0c0"
    expectSame(harness, invalid)
    let tooMany = BrokerDomain(epoch: 7, name: "test", maxItems: 3)
    var small = harness
    small.domain = tooMany
    expectSame(small, Grid.layout(rows: 2, columns: 2))
  }

  @Test("a screen key's claim: the same bind effect; another key's screen: refused unchanged")
  func access() {
    let harness = Harness()
    expectSame(harness, Grid.layout(rows: 1, columns: 2), principal: screenKey)
    expectSame(
      harness, Grid.layout(rows: 1, columns: 2), principal: screenKey, owners: ["main": "bb02ff"])
  }

  @Test("owners changed after the preparation: the apply checks access now and refuses")
  func ownerChanged() {
    var harness = Harness()
    let layout = Grid.layout(rows: 1, columns: 2)
    let prepared = BrokerDomain.prepareRegistration(
      layout, app: false, on: harness.domain.registrationBase(for: "main"), at: harness.now)
    let before = harness.domain
    let applied = harness.domain.handle(
      prepared, from: screenKey, owners: ["main": "bb02ff"], at: harness.now)
    expectOutcome(
      applied.outcome,
      .init(
        reply: .error(
          .forbidden(
            AccessRefusal(
              peer: "aa01", role: .screen, request: "register_screen", screen: "main",
              reason: .ownedByAnother)))))
    #expect(harness.domain == before)
  }

  /// Applies `prepared` and checks it fell back to the full path: the same outcome as
  /// registering `layout` on the domain as it is now, and that domain after it.
  static func appliesAsFullPath(
    _ prepared: BrokerDomain.PreparedRegistration, _ layout: Layout, in harness: inout Harness
  ) -> (outcome: BrokerDomain.Outcome, prepared: Bool) {
    var full = harness.domain
    let expected = full.handle(
      .register(screen: "main", layout: layout), from: .local, owners: [:], at: harness.now)
    let applied = harness.domain.handle(prepared, from: .local, owners: [:], at: harness.now)
    #expect(!applied.prepared)
    expectOutcome(applied.outcome, expected)
    #expect(harness.domain == full)
    return applied
  }

  @Test("the session changed after the preparation: the full path runs on it as it is now")
  func sessionChanged() {
    var harness = Harness(records: [:])
    let layout = Grid.layout(rows: 2, columns: 3)
    harness.register(layout)
    let prepared = BrokerDomain.prepareRegistration(
      layout, app: false, on: harness.domain.registrationBase(for: "main"), at: harness.now)
    // A press on that screen moves focus between the preparation and the apply.
    _ = harness.key(.right)
    let applied = Self.appliesAsFullPath(prepared, layout, in: &harness)
    #expect(applied.outcome.ack == Acknowledgement(screen: "main", seq: 3, focused: "r0c1"))
  }

  @Test("the session expired after the preparation: registered anew from its record")
  func sessionExpired() {
    var harness = Harness(records: [:])
    let layout = Grid.layout(rows: 2, columns: 3)
    harness.register(layout)
    _ = harness.key(.down)
    let prepared = BrokerDomain.prepareRegistration(
      layout, app: false, on: harness.domain.registrationBase(for: "main"), at: harness.now)
    harness.now = .at(seconds: 100)
    _ = harness.send(.expire(grace: .seconds(10)))
    let applied = Self.appliesAsFullPath(prepared, layout, in: &harness)
    #expect(applied.outcome.ack == Acknowledgement(screen: "main", seq: 1, focused: "r1c0"))
  }

  @Test("in a batch: the touched screen is named, and a rollback puts it back")
  func batch() {
    var harness = Harness(records: [:])
    harness.register(Grid.layout(rows: 1, columns: 3))
    _ = harness.key(.right)
    let reference = harness.domain
    let token = harness.domain.beginBatch()
    let prepared = BrokerDomain.prepareRegistration(
      Grid.layout(rows: 2, columns: 1), app: false,
      on: harness.domain.registrationBase(for: "main"), at: harness.now)
    let applied = harness.domain.handle(prepared, from: .local, owners: [:], at: harness.now)
    #expect(applied.prepared)
    // r0c1 is gone: focus recovers, and the record changes.
    #expect(applied.outcome.ack?.seq == 3)
    #expect(harness.domain.takeTouchedScreen() == "main")
    #expect(harness.domain.rollBack(token) == ["main"])
    #expect(harness.domain.sessions == reference.sessions)
    #expect(harness.domain.records == reference.records)
  }

  @Test("the prepared snapshot is the one the outcome publishes")
  func snapshot() throws {
    var harness = Harness()
    let prepared = BrokerDomain.prepareRegistration(
      Grid.layout(rows: 1, columns: 2), app: false,
      on: harness.domain.registrationBase(for: "main"), at: harness.now)
    let applied = harness.domain.handle(prepared, from: .local, owners: [:], at: harness.now)
    #expect(applied.outcome.publications == [.snapshot(try #require(prepared.snapshot))])
  }
}
