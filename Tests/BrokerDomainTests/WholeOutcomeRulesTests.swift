import BrokerDomain
import FocusEngine
import Testing

/// The rules the runtime used to hold, each asserted as a whole `Outcome` (reply and exact
/// effects) and, where it says what the state must be, the whole domain after it: at-most-once
/// presses, batch rollback, routing input to the only session, validation and expiry.
@Suite("Domain: whole outcomes of presses, batches, routing, limits and expiry")
struct WholeOutcomeRulesTests {
  /// A persisting domain with `main` (a row of four) registered.
  static func persisting() -> Harness {
    var harness = Harness(records: [:])
    harness.register(Grid.layout(rows: 1, columns: 4))
    return harness
  }

  // MARK: At-most-once presses

  @Test("a new press is applied as without an id, then recorded")
  func newPress() {
    var harness = Self.persisting()
    var reference = harness.domain
    let request = harness.keyRequest(.right)
    var expected = reference.handle(request, at: harness.now)
    expected.recordedPress = "p1"
    let outcome = harness.send(request, press: Press(id: "p1", applied: false))
    expectOutcome(outcome, expected)
    #expect(harness.domain == reference)
    #expect(outcome.ack?.focused == "r0c1")
  }

  @Test("a press applied already is answered with the session as it is, and changes nothing")
  func repeatedPress() {
    var harness = Self.persisting()
    _ = harness.send(harness.keyRequest(.right), press: Press(id: "p1", applied: false))
    let before = harness.domain
    let outcome = harness.send(harness.keyRequest(.right), press: Press(id: "p1", applied: true))
    expectOutcome(
      outcome, .init(reply: .ack(Acknowledgement(screen: "main", seq: 2, focused: "r0c1"))))
    #expect(harness.domain == before)
  }

  @Test("a repeat naming no session is answered with an empty acknowledgement")
  func repeatedPressNoSession() {
    var harness = Self.persisting()
    let before = harness.domain
    let request = harness.keyRequest(.right, screen: "gone")
    let outcome = harness.send(request, press: Press(id: "p1", applied: true))
    expectOutcome(outcome, .init(reply: .ack(Acknowledgement(screen: "", seq: 0, focused: nil))))
    #expect(harness.domain == before)
  }

  @Test("a refused press is not recorded: a retry is applied")
  func refusedPress() {
    var harness = Self.persisting()
    let before = harness.domain
    let outcome = harness.send(
      harness.keyRequest(.right, screen: "tv"), press: Press(id: "p1", applied: false))
    expectOutcome(outcome, .init(reply: .error(.unknownScreen("tv", known: ["main"]))))
    #expect(harness.domain == before)
  }

  // MARK: Batches

  @Test("a rolled-back batch leaves the changed screens as before it; the next press is the same")
  func rollBack() {
    var harness = Self.persisting()
    harness.register(Grid.layout(rows: 1, columns: 2), screen: "other")
    var reference = harness.domain
    let token = harness.domain.beginBatch()
    let right = harness.keyRequest(.right)
    let applied = harness.send(right)
    #expect(applied.records.count == 1)
    #expect(harness.domain.takeTouchedScreen() == "main")
    #expect(harness.domain.takeTouchedScreen() == nil)
    // `other` is only read: not undone.
    _ = harness.send(.snapshot(screen: "other"))
    #expect(harness.domain.rollBack(token) == ["main"])
    #expect(harness.domain.sessions == reference.sessions)
    #expect(harness.domain.records == reference.records)
    // The same press again: the same whole outcome as on the domain that never saw the batch.
    expectOutcome(harness.send(right), reference.handle(right, at: harness.now))
  }

  @Test("rolling back a sealed batch rolls back the batch opened on it too, newest first")
  func sealedRollBack() {
    var harness = Self.persisting()
    harness.register(Grid.layout(rows: 1, columns: 3), screen: "other")
    let reference = harness.domain
    let sealed = harness.domain.beginBatch()
    _ = harness.key(.right)
    _ = harness.key(.right, .up)
    harness.domain.seal(sealed)
    // Opened on top of the sealed batch: `main` moves again, `other` moves.
    let open = harness.domain.beginBatch()
    #expect(open != sealed)
    _ = harness.key(.right)
    _ = harness.key(.right, .up)
    _ = harness.key(.right, screen: "other")
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c2")
    #expect(harness.domain.rollBack(sealed) == ["main", "other"])
    #expect(harness.domain.sessions == reference.sessions)
    #expect(harness.domain.records == reference.records)
    // Both ended: a new batch begins.
    _ = harness.domain.beginBatch()
  }

  @Test(
    "a sealed batch ends first; then the batch opened on it can be sealed and rolled back alone")
  func sealedEnds() {
    var harness = Self.persisting()
    let sealed = harness.domain.beginBatch()
    _ = harness.key(.right)
    _ = harness.key(.right, .up)
    harness.domain.seal(sealed)
    let open = harness.domain.beginBatch()
    // Only read, then settled: forgotten, so a rollback does not need it.
    _ = harness.send(.snapshot(screen: "main"))
    harness.domain.settle()
    _ = harness.key(.right)
    _ = harness.key(.right, .up)
    harness.domain.endBatch(sealed)
    let durable = harness.domain.records
    #expect(durable["main"]?.focused == "r0c2")
    harness.domain.seal(open)
    #expect(harness.domain.rollBack(open) == ["main"])
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c1")
    #expect(harness.domain.records["main"]?.focused == "r0c1")
  }

  @Test("an ended batch keeps what it changed, and a new batch can begin")
  func endBatch() {
    var harness = Self.persisting()
    let token = harness.domain.beginBatch()
    _ = harness.key(.right)
    harness.domain.endBatch(token)
    let after = harness.domain
    #expect(after.sessions["main"]?.focus.focused == "r0c1")
    #expect(after.records["main"]?.focused == "r0c1")
    let next = harness.domain.beginBatch()
    #expect(next != token)
    #expect(harness.domain.rollBack(next) == [])
    #expect(harness.domain.sessions == after.sessions)
  }

  /// A 1×3 grid whose app is attached, with a select held for the app's reaction: its token.
  private static func heldActivation(_ harness: inout Harness) throws -> UInt64 {
    harness.register(Grid.layout(rows: 1, columns: 3))
    _ = harness.send(.snapshot(screen: "main", app: true))
    guard
      case .held(let token, _) = AppReactionRulesTests.click(&harness, .select, at: 1).reply
    else { throw HeldActivationError() }
    return token
  }

  private struct HeldActivationError: Error, CustomStringConvertible {
    var description: String { "the activation was not held" }
  }

  /// An app reacts just as a commit fails: the reaction released the hold, applying the held
  /// `right` and answering it; the failed commit told its requester STORE_UNAVAILABLE. The hold
  /// put back must not apply that `right` later, when the app reacts again.
  @Test("a rolled-back release does not apply the inputs it answered again")
  func rolledBackRelease() throws {
    var harness = Harness(records: [:])
    let selectToken = try Self.heldActivation(&harness)
    let activationSeq = try #require(harness.domain.sessions["main"]?.seq)
    guard case .held(let rightToken, _) = harness.key(.right, .down, time: 2_000_000_000).reply
    else {
      Issue.record("the right press was not held")
      return
    }
    let token = harness.domain.beginBatch()
    let reaction = harness.send(
      .react(
        AppReaction(stateSeq: activationSeq, commands: []), screen: "main",
        cause: harness.cause()))
    #expect(Set(AppReactionRulesTests.released(reaction).keys) == [selectToken, rightToken])
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c1")
    #expect(harness.domain.rollBack(token) == ["main"])
    let restored = try #require(harness.domain.sessions["main"])
    let hold = try #require(restored.hold)
    #expect(hold.queued.isEmpty, "the answered right is held again")
    #expect(!harness.domain.isHolding(token: rightToken))
    // The app reacts again: only the activation's (stale) reply is released; nothing moves.
    var ack = hold.ack
    ack.seq = restored.seq
    ack.focused = "r0c0"
    harness.expect(
      .react(
        AppReaction(stateSeq: activationSeq, commands: []), screen: "main",
        cause: harness.cause()),
      .init(
        reply: .ack(Acknowledgement(screen: "main", seq: restored.seq, focused: "r0c0")),
        effects: [.release(token: selectToken, reply: .ack(ack))]))
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c0")
  }

  @Test("a rolled-back deadline release does not apply the inputs it answered again")
  func rolledBackDeadline() throws {
    var harness = Harness(records: [:])
    let selectToken = try Self.heldActivation(&harness)
    _ = harness.key(.right, .down, time: 2_000_000_000)
    let deadline = try #require(harness.domain.nextHoldDeadline)
    let token = harness.domain.beginBatch()
    #expect(harness.domain.releaseExpiredHolds(at: deadline).map(\.screen) == ["main"])
    #expect(harness.domain.rollBack(token) == ["main"])
    let restored = try #require(harness.domain.sessions["main"])
    let hold = try #require(restored.hold)
    #expect(hold.queued.isEmpty, "the answered right is held again")
    // At the deadline again: only the activation's reply; the app is presumed gone.
    var ack = hold.ack
    ack.seq = restored.seq
    ack.focused = "r0c0"
    let released = harness.domain.releaseExpiredHolds(at: deadline)
    #expect(released.map(\.screen) == ["main"])
    #expect(released.first?.effects == [.release(token: selectToken, reply: .ack(ack))])
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c0")
  }

  // MARK: Routing

  @Test("input naming no screen goes to the only session: the same outcome and state")
  func onlySession() {
    var harness = Self.persisting()
    var named = harness.domain
    let cause = harness.cause()
    let input = RemoteInput.button(.right, .down, at: 0)
    let expected = named.handle(
      .input(input, screen: "main", remote: "remote", cause: cause), at: harness.now)
    harness.expect(
      .input(input, screen: nil, remote: "remote", cause: cause), expected, state: named)
  }

  @Test("input naming no screen is refused with none or several, and changes nothing")
  func noOnlySession() {
    var harness = Harness()
    var request = harness.keyRequest(.right, screen: nil)
    harness.expect(request, .init(reply: .error(.noScreenRegistered)), state: harness.domain)
    harness.register(Grid.layout(rows: 1, columns: 2), screen: "b")
    harness.register(Grid.layout(rows: 1, columns: 2), screen: "a")
    request = harness.keyRequest(.right, screen: nil)
    harness.expect(
      request, .init(reply: .error(.ambiguousScreen(known: ["a", "b"]))), state: harness.domain)
  }

  @Test("in a batch, input naming no screen touches the only session")
  func onlySessionTouched() {
    var harness = Self.persisting()
    let token = harness.domain.beginBatch()
    _ = harness.key(.right, screen: nil)
    #expect(harness.domain.takeTouchedScreen() == "main")
    #expect(harness.domain.rollBack(token) == ["main"])
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c0")
  }

  // MARK: Validation

  @Test("a layout over the item limit is refused whole; the limit is the engine's")
  func itemLimit() {
    #expect(BrokerDomain(epoch: 1, name: "t").maxItems == Layout.maximumItemCount)
    var harness = Harness()
    harness.domain = BrokerDomain(epoch: 7, name: "test", maxItems: 2)
    harness.expect(
      .register(screen: "main", layout: Grid.layout(rows: 1, columns: 3)),
      .init(reply: .error(.tooManyItems(count: 3, limit: 2))), state: harness.domain)
    harness.register(Grid.layout(rows: 1, columns: 2))
    let grow = LayoutPatch([
      .addItem(Item(id: "x", frame: Rect(x: 0, y: 900, width: 10, height: 10)), group: nil)
    ])
    harness.expect(
      .patch(grow, screen: "main", cause: harness.cause()),
      .init(reply: .error(.tooManyItems(count: 3, limit: 2))), state: harness.domain)
  }

  // MARK: Expiry

  @Test("expiry drops silent sessions only, answered with their ids; input then gets screenGone")
  func expiry() {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 2), screen: "tv")
    harness.now = .at(seconds: 20)
    harness.register(Grid.layout(rows: 1, columns: 2), screen: "kept")
    harness.now = .at(seconds: 32)
    harness.expect(.expire(grace: .seconds(30)), .init(reply: .expired(screens: ["tv"])))
    #expect(harness.domain.sessions.keys.sorted() == ["kept"])
    #expect(harness.domain.gone == ["tv"])
    harness.expect(
      harness.keyRequest(.right, screen: "tv"), .init(reply: .error(.screenGone("tv"))),
      state: harness.domain)
    harness.expect(.expire(grace: .seconds(30)), .init(reply: .expired(screens: [])))
  }
}
