import BrokerDomain
import Foundation
import Logging
import TenFootProtocol
import TenFootStore
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

/// Group commit over a store whose commit is a round trip (a zone's), with a fake store whose
/// answers the test gives: the ordering rules of the pipeline, deterministically.
@Suite("Group commit: a zone's commit off the loop (pipelined)")
struct GroupCommitPipelineTests {
  /// A deduplicating store whose commits wait for the test's answer.
  final class GatedZoneStore: AsynchronousSessionStore, PressDeduplicating {
    let path = "gated"
    private(set) var records: [String: SessionRow] = [:]
    /// Press ids committed, in order.
    private(set) var recorded: [String] = []
    private var pending: [String] = []
    private var sent: (rows: [SessionRow], presses: [String])?
    private var answered: (@Sendable (Result<Void, SessionStoreError>) -> Void)?
    /// The screens of each commit sent, in order.
    private(set) var commits: [[String]] = []

    var isInFlight: Bool { sent != nil }

    func commit(_ changes: some Collection<SessionRow>) throws(SessionStoreError) {
      Issue.record("the loop committed a round-trip store synchronously")
    }

    func startCommit(
      _ changes: some Collection<SessionRow>,
      answered: @escaping @Sendable (Result<Void, SessionStoreError>) -> Void
    ) -> Result<Void, SessionStoreError>? {
      #expect(sent == nil, "a second commit was sent while one was in flight")
      let rows = changes.filter { records[$0.screenID] != $0 }
      guard !rows.isEmpty || !pending.isEmpty else { return .success(()) }
      sent = (Array(rows), pending)
      commits.append(rows.map(\.screenID).sorted())
      pending = []
      self.answered = answered
      return nil
    }

    func finishCommit(_ answer: Result<Void, SessionStoreError>) throws(SessionStoreError) {
      guard let sent else {
        Issue.record("finished a commit that was not sent")
        return
      }
      self.sent = nil
      try answer.get()
      for row in sent.rows { records[row.screenID] = row }
      recorded += sent.presses
    }

    /// Answers the commit in flight (as PostgreSQL's event loop would).
    func answer(_ result: Result<Void, SessionStoreError>) {
      let answered = self.answered
      self.answered = nil
      answered?(result)
    }

    func close() {}
    func hasApplied(press: String) -> Bool {
      recorded.contains(press) || pending.contains(press)
        || sent?.presses.contains(press) == true
    }
    func willApply(press: String) { pending.append(press) }
    func forget(press: String) { pending.removeAll { $0 == press } }
  }

  /// What went out: replies by request seq, and publications by topic.
  enum Sent: Equatable {
    case reply(seq: UInt64, Tenfoot_V1_Envelope.OneOf_Body)
    case publish(String)

    var seq: UInt64? {
      if case .reply(let seq, _) = self { return seq }
      return nil
    }
  }

  /// A group commit over a `GatedZoneStore`, driven drain by drain as the broker's loop is.
  final class Harness {
    let store = GatedZoneStore()
    let group: GroupCommit
    var core = WireBroker(epoch: 1, name: "test", records: [:])
    var seq: UInt64 = 0
    let now = BrokerClock.monotonic.now

    init(backlog: (messages: Int, bytes: Int) = (10_000, 1 << 24)) throws {
      group = GroupCommit(
        persistence: SessionPersistence(store: store), clock: .monotonic,
        logger: Logger(label: "test"), waker: try Waker(), backlogLimit: backlog)
    }

    /// Serves `requests` (peer, body) as one drain; returns the seqs given to them and what
    /// went out at its end.
    func drain(_ requests: [(peer: UInt8, body: Tenfoot_V1_Envelope.OneOf_Body)])
      -> (seqs: [UInt64], sent: [Sent])
    {
      group.open(&core)
      var seqs: [UInt64] = []
      for (peer, body) in requests {
        group.next()
        seq += 1
        seqs.append(seq)
        let envelope = Tenfoot_V1_Envelope(
          sender: "remote", seq: seq, sentAtNanoseconds: 1, body: body)
        let outcome = group.handle(envelope, peer: [peer], core: &core, at: now)
        for publication in outcome.publications {
          group.hold(.publish(topic: publication.topic, body: publication.body))
        }
        group.hold(.reply(peer: [peer], replyTo: seq, body: outcome.outgoingReply))
      }
      return (seqs, Self.sent(group.commit(&core)))
    }

    /// The store answers the commit in flight; returns what the loop then sends.
    func answer(_ result: Result<Void, SessionStoreError>) -> [Sent] {
      store.answer(result)
      return Self.sent(group.answered(&core) ?? [])
    }

    static func sent(_ outputs: [GroupCommit.Output]) -> [Sent] {
      outputs.map { output in
        switch output {
        case .reply(_, let replyTo, let body): .reply(seq: replyTo, body.body)
        case .publish(let topic, _), .publishChange(let topic, _), .publishSnapshot(let topic, _):
          .publish(topic)
        }
      }
    }

    func press(
      _ id: String, screen: String = "main", _ phase: Tenfoot_V1_KeyPhase = .down
    ) -> Tenfoot_V1_Envelope.OneOf_Body {
      var input = Tenfoot_V1_Input()
      input.screenID = screen
      input.key.key = .right
      input.key.phase = phase
      input.pressID = id
      return .input(input)
    }

    func snapshot(_ screen: String) -> Tenfoot_V1_Envelope.OneOf_Body {
      .snapshotRequest(.with { $0.screenID = screen })
    }

    /// Registers `main` and `other` and commits them.
    func registerBoth() throws {
      var requests: [(peer: UInt8, body: Tenfoot_V1_Envelope.OneOf_Body)] = []
      for screen in ["main", "other"] {
        var request = Tenfoot_V1_RegisterScreen()
        request.screenID = screen
        request.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 4))
        requests.append((9, .registerScreen(request)))
      }
      let registered = drain(requests)
      try #require(registered.sent.allSatisfy { $0.seq == nil }, "acked before the commit")
      let acks = answer(.success(()))
      try #require(acks.compactMap(\.seq) == registered.seqs)
    }

    func focused(_ screen: String) -> String? { core.domain.sessions[screen]?.focus.focused }
  }

  static let lost = SessionStoreError.unavailable(
    store: "gated", code: "08006", message: "connection failure")

  @Test(
    "while a press's commit is in flight, a Hello and another screen's snapshot are answered; the press only after its answer"
  )
  func servesDuringCommit() throws {
    let harness = try Harness()
    try harness.registerBoth()
    let pressed = harness.drain([(1, harness.press("p1"))])
    #expect(pressed.sent.isEmpty, "the press or its delta went out before it was durable")
    #expect(harness.store.isInFlight)
    let meanwhile = harness.drain([(2, .hello(.init())), (3, harness.snapshot("other"))])
    #expect(meanwhile.sent.compactMap(\.seq) == meanwhile.seqs, "not answered during the commit")
    // A snapshot of the screen being committed shows what is not durable yet: it waits.
    let same = harness.drain([(3, harness.snapshot("main"))])
    #expect(same.sent.isEmpty)
    let answered = harness.answer(.success(()))
    #expect(answered.contains(.publish("screen/main")), "the press's delta was not published")
    // The snapshot's batch needs no write: it goes out with the answer, after the press.
    #expect(answered.compactMap(\.seq) == pressed.seqs + same.seqs)
    #expect(harness.store.isInFlight == false)
    let rest = harness.answer(.success(()))
    #expect(rest.isEmpty)
    #expect(harness.store.recorded == ["p1"])
  }

  @Test(
    "presses gathered behind a commit are sent with the next commit, in order, acknowledged after it"
  )
  func pipelines() throws {
    let harness = try Harness()
    try harness.registerBoth()
    let first = harness.drain([(1, harness.press("p1"))])
    let second = harness.drain([
      (1, harness.press("p1-up", .up)), (1, harness.press("p2")),
      (2, harness.press("q1", screen: "other")),
    ])
    #expect(second.sent.isEmpty, "a press gathered behind a commit went out before its own")
    #expect(harness.focused("main") == "r0c2", "the domain did not apply p2 on top of p1")
    let afterFirst = harness.answer(.success(()))
    #expect(afterFirst.compactMap(\.seq) == first.seqs)
    #expect(
      harness.store.commits.last == ["main", "other"], "the gathered batch was not sent next")
    let afterSecond = harness.answer(.success(()))
    #expect(afterSecond.compactMap(\.seq) == second.seqs)
    #expect(harness.store.records["main"]?.focused == "r0c2")
    #expect(harness.store.recorded == ["p1", "p1-up", "p2", "q1"])
  }

  @Test(
    "a failed commit refuses its requests and every one gathered behind it; their retries are applied"
  )
  func failureRefusesDependents() throws {
    let harness = try Harness()
    try harness.registerBoth()
    let first = harness.drain([(1, harness.press("p1"))])
    let second = harness.drain([
      (1, harness.press("p1-up", .up)), (1, harness.press("p2")),
      (2, harness.press("q1", screen: "other")), (3, harness.press("p1")),
    ])
    #expect(harness.focused("main") == "r0c2")
    let refused = harness.answer(.failure(Self.lost))
    #expect(refused.compactMap(\.seq) == first.seqs + second.seqs)
    for case .reply(_, let body) in refused {
      guard case .error(let error) = body else {
        Issue.record("acknowledged although its commit failed: \(body)")
        continue
      }
      #expect(error.code == .storeUnavailable)
    }
    #expect(!refused.contains(.publish("screen/main")), "a rolled-back delta was published")
    #expect(harness.focused("main") == "r0c0")
    #expect(harness.focused("other") == "r0c0")
    #expect(harness.store.isInFlight == false, "a rolled-back batch was sent")
    // Nothing of either batch is recorded: the retries are applied, once.
    let retried = harness.drain([
      (1, harness.press("p1")), (2, harness.press("q1", screen: "other")),
    ])
    let acks = harness.answer(.success(()))
    #expect(acks.compactMap(\.seq) == retried.seqs)
    #expect(harness.store.recorded == ["p1", "q1"])
    #expect(harness.focused("main") == "r0c1")
  }

  @Test("a peer's replies stay in order: its Hello waits behind its press in flight")
  func peerOrder() throws {
    let harness = try Harness()
    try harness.registerBoth()
    let pressed = harness.drain([(1, harness.press("p1"))])
    let hello = harness.drain([(1, .hello(.init())), (2, .hello(.init()))])
    #expect(hello.sent.compactMap(\.seq) == [hello.seqs[1]], "only the other peer's Hello goes now")
    // The Hello's batch needs no write: it goes out right after the press's answer.
    let answered = harness.answer(.success(()))
    #expect(answered.compactMap(\.seq) == pressed.seqs + [hello.seqs[0]])
    #expect(harness.store.isInFlight == false)
  }

  @Test("the batch gathering behind a commit is bounded in requests")
  func backlogBound() throws {
    let harness = try Harness(backlog: (2, 1 << 20))
    try harness.registerBoth()
    _ = harness.drain([(1, harness.press("p1"))])
    #expect(harness.group.admit(bytes: 10))
    #expect(harness.group.admit(bytes: 10))
    #expect(!harness.group.admit(bytes: 10), "a third request gathered past the bound")
    _ = harness.answer(.success(()))
    #expect(harness.group.admit(bytes: 10), "the bound did not reset once the commit ended")
  }
}
