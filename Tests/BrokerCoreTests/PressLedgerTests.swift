import BrokerDomain
import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TenFootStore
import TestSupport
import Testing

@testable import BrokerCore

/// Press ids within one group-commit batch, on a store that deduplicates them: the same id
/// twice in a batch moves focus once and is recorded once; when the batch's commit fails both
/// are refused and nothing is recorded, so a retry is applied.
@Suite("Broker: press ids in one group-commit batch")
struct PressLedgerTests {
  /// A deduplicating store in memory (as the zone's PostgreSQL store behaves), that can be told
  /// to fail its next commit.
  final class MemoryZoneStore: DurableSessionStore, PressDeduplicating {
    let path = "memory"
    private(set) var records: [String: SessionRow] = [:]
    /// Press ids committed, in order (one entry per recording).
    private(set) var recorded: [String] = []
    private var pending: [String] = []
    var failNext = false
    /// The next commit is applied but its answer lost (`outcomeUnknown`); from then on every
    /// commit fails with it, as `PostgresSessionStore` does.
    var loseNextAnswer = false
    private var unanswered: SessionStoreError?
    /// Commits asked of the store.
    private(set) var commits = 0

    func commit(_ changes: some Collection<SessionRow>) throws(SessionStoreError) {
      commits += 1
      let presses = pending
      pending = []
      if let unanswered { throw unanswered }
      if failNext {
        failNext = false
        throw .unavailable(store: path, code: "08006", message: "connection failure")
      }
      for row in changes { records[row.screenID] = row }
      recorded += presses
      if loseNextAnswer {
        loseNextAnswer = false
        let failure = SessionStoreError.outcomeUnknown(
          store: path, message: "connection lost before the answer")
        unanswered = failure
        throw failure
      }
    }

    func close() {}
    func hasApplied(press: String) -> Bool {
      recorded.contains(press) || pending.contains(press)
    }
    func willApply(press: String) { pending.append(press) }
    func forget(press: String) { pending.removeAll { $0 == press } }
  }

  /// A group commit over a `MemoryZoneStore` and a broker core, driven batch by batch as the
  /// broker's loop drives them.
  final class Harness {
    let store = MemoryZoneStore()
    let group: GroupCommit
    // Empty records (not nil): the domain persists, as over a data directory or a zone store.
    var core = WireBroker(epoch: 1, name: "test", records: [:])
    var seq: UInt64 = 0
    /// The time every batch is handled at: holds for an app's reaction never run out.
    let now = BrokerClock.monotonic.now

    init() {
      group = GroupCommit(
        persistence: SessionPersistence(store: store), clock: .monotonic,
        logger: Logger(label: "test"))
    }

    /// Serves `bodies` as one loop iteration's batch; returns the replies sent after the commit.
    func batch(_ bodies: [Tenfoot_V1_Envelope.OneOf_Body]) -> [Tenfoot_V1_Envelope
      .OneOf_Body]
    {
      group.open(&core)
      for body in bodies {
        group.next()
        seq += 1
        let envelope = Tenfoot_V1_Envelope(
          sender: "remote", seq: seq, sentAtNanoseconds: 1, body: body)
        let outcome = group.handle(envelope, peer: [1], core: &core, at: now)
        for publication in outcome.publications {
          group.hold(.publish(topic: publication.topic, body: publication.body))
        }
        group.hold(.reply(peer: [1], replyTo: seq, body: outcome.outgoingReply))
      }
      return group.commit(&core).compactMap { output in
        guard case .reply(_, _, let body) = output else { return nil }
        return body.body
      }
    }

    /// Right, pressed (`.down`) or released (`.up`), with press id `id`.
    func press(_ id: String, _ phase: Tenfoot_V1_KeyPhase = .down) -> Tenfoot_V1_Envelope.OneOf_Body
    {
      var input = Tenfoot_V1_Input()
      input.screenID = "main"
      input.key.key = .right
      input.key.phase = phase
      input.pressID = id
      return .input(input)
    }

    func register() {
      var request = Tenfoot_V1_RegisterScreen()
      request.screenID = "main"
      request.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 4))
      _ = batch([.registerScreen(request)])
    }
  }

  @Test("the same press id twice in one batch moves focus once and is recorded once")
  func duplicateInOneBatch() {
    let harness = Harness()
    let store = harness.store
    harness.register()
    let replies = harness.batch([harness.press("p1"), harness.press("p1")])
    #expect(replies.count == 2)
    for reply in replies {
      guard case .ack(let ack) = reply else {
        Issue.record("not acknowledged: \(reply)")
        continue
      }
      #expect(ack.focused == "r0c1", "the duplicate moved focus again")
    }
    #expect(harness.core.domain.sessions["main"]?.focus.focused == "r0c1")
    #expect(store.records["main"]?.focused == "r0c1")
    #expect(store.recorded == ["p1"])
    // A third copy, in a later batch, is still applied once; the next press moves on.
    _ = harness.batch([harness.press("p1"), harness.press("p1-up", .up), harness.press("p2")])
    #expect(store.records["main"]?.focused == "r0c2")
    #expect(store.recorded == ["p1", "p1-up", "p2"])
  }

  @Test("a failed batch refuses the press and its duplicate; the retry is applied once")
  func duplicateInFailedBatch() {
    let harness = Harness()
    let store = harness.store
    harness.register()
    store.failNext = true
    let refused = harness.batch([harness.press("p1"), harness.press("p1")])
    #expect(refused.count == 2)
    for reply in refused {
      guard case .error(let error) = reply else {
        Issue.record("acknowledged although nothing was durable: \(reply)")
        continue
      }
      #expect(error.code == .storeUnavailable)
    }
    #expect(harness.core.domain.sessions["main"]?.focus.focused == "r0c0")
    #expect(store.recorded.isEmpty)
    let retried = harness.batch([harness.press("p1"), harness.press("p1")])
    guard case .ack(let ack) = retried.first else {
      Issue.record("the retry was not acknowledged: \(retried)")
      return
    }
    #expect(ack.focused == "r0c1")
    #expect(store.recorded == ["p1"])
  }
}
