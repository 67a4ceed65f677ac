import BrokerDomain
import TenFootProtocol
import Testing

@testable import BrokerCore

/// Group commit over a store whose commit fails, with an app's reaction in the failed batch:
/// the runtime lets the domain roll the batch back (`BrokerDomain.rollBack`).
@Suite("Group commit: a failed batch is rolled back by the domain")
struct GroupCommitRollbackTests {
  static func key(_ key: Tenfoot_V1_Key, _ phase: Tenfoot_V1_KeyPhase)
    -> Tenfoot_V1_Envelope.OneOf_Body
  {
    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    input.key.key = key
    input.key.phase = phase
    return .input(input)
  }

  static func reaction(to seq: UInt64) -> Tenfoot_V1_Envelope.OneOf_Body {
    .appReaction(
      .with {
        $0.screenID = "main"
        $0.stateSeq = seq
      })
  }

  @Test("a reaction whose commit fails answers what it released, and never applies it later")
  func failedReaction() throws {
    let harness = PressLedgerTests.Harness()
    harness.register()
    _ = harness.batch([
      .snapshotRequest(
        .with {
          $0.screenID = "main"
          $0.app = true
        })
    ])
    // Select activates: held for the app's reaction; right waits behind it.
    _ = harness.batch([Self.key(.select, .down), Self.key(.select, .up)])
    let activation = try #require(harness.core.domain.sessions["main"]?.seq)
    _ = harness.batch([Self.key(.right, .down)])
    #expect(harness.core.domain.sessions["main"]?.hold?.queued.count == 1)
    // The app reacts just as the store fails: the reaction (which applied the held right) is
    // refused, and the domain is put back as before the batch.
    harness.store.failNext = true
    let refused = harness.batch([Self.reaction(to: activation)])
    guard case .error(let error) = refused.last else {
      Issue.record("the reaction was acknowledged although nothing was durable: \(refused)")
      return
    }
    #expect(error.code == .storeUnavailable)
    #expect(harness.core.domain.sessions["main"]?.focus.focused == "r0c0")
    // The app reacts again, saved now: the right its requester was told failed stays unapplied.
    let accepted = harness.batch([Self.reaction(to: activation)])
    guard case .ack(let ack) = accepted.last else {
      Issue.record("the second reaction was not acknowledged: \(accepted)")
      return
    }
    #expect(ack.focused == "r0c0", "a press answered STORE_UNAVAILABLE was applied later")
    #expect(harness.core.domain.sessions["main"]?.hold == nil)
  }
}

/// A commit applied by the store whose answer was lost (`outcomeUnknown`, a zone's PostgreSQL
/// connection dropped mid-commit): the domain rolled back, so it is behind the store, which
/// then refuses every commit (`PostgresSessionStore`; the memory store does the same). The
/// group commit rolls each later batch back and refuses its requests.
@Suite("Group commit: after an unknown outcome nothing more is applied")
struct GroupCommitUnknownOutcomeTests {
  @Test(
    "a press after an unanswered commit is refused, not applied on the rolled-back focus over the committed one"
  )
  func behindTheStore() throws {
    let harness = PressLedgerTests.Harness()
    let store = harness.store
    harness.register()
    store.loseNextAnswer = true
    let unanswered = harness.batch([harness.press("p1")])
    guard case .error(let first) = unanswered.last else {
      Issue.record("an unanswered commit was acknowledged: \(unanswered)")
      return
    }
    #expect(first.code == .storeUnavailable)
    // The store holds p1's move; the domain was rolled back before it.
    #expect(store.records["main"]?.focused == "r0c1")
    #expect(harness.core.domain.sessions["main"]?.focus.focused == "r0c0")

    // The next press, and p1's retry: refused and rolled back, the store's row kept.
    let next = harness.batch([harness.press("p2"), harness.press("p1")])
    #expect(next.count == 2)
    for reply in next {
      guard case .error(let error) = reply else {
        Issue.record("served on sessions behind the store: \(reply)")
        continue
      }
      #expect(error.code == .storeUnavailable)
    }
    #expect(harness.core.domain.sessions["main"]?.focus.focused == "r0c0", "not rolled back")
    #expect(store.records["main"]?.focused == "r0c1", "p1's committed move was overwritten")
    #expect(store.recorded == ["p1"])
  }
}
