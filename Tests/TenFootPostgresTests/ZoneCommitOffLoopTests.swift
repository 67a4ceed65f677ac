import BrokerCore
import FocusEngine
import Foundation
import Logging
import TenFootPostgres
import TenFootProtocol
import TenFootStore
import TestSupport
import Testing
import ZeroMQ

/// A zone broker's commit runs off its loop: while PostgreSQL holds a commit (the test holds
/// the zone's row lock that the commit's fence waits on), the broker keeps publishing
/// heartbeats and answering requests that need no write; the press being committed is
/// acknowledged only once the lock is released, and a commit that fails (a takeover bumped
/// the term meanwhile) refuses the press and every request gathered behind it.
@Suite(
  "Zone commit off the broker's loop (PostgreSQL)", .enabled(if: TestPostgres.shouldRun),
  .serialized)
struct ZoneCommitOffLoopTests {
  let logger = Logger(label: "test")

  /// A zone broker of "hall" under term 1, two peers and a heartbeat subscriber.
  final class Stack: EnvelopePeer {
    let postgres: TestPostgres
    let url: PostgresURL
    let leadership: ZoneLeadership
    let context: Context
    let broker: BrokerThread
    let remote: Socket
    let other: Socket
    let heartbeats: Socket
    /// A connection of the test's own, holding row locks in a transaction.
    let locker: PostgresLink
    var seq: UInt64 = 0

    init(logger: Logger) throws {
      let zone = try HallZone(logger: logger)
      (postgres, url, leadership) = (zone.postgres, zone.url, zone.a)
      let term: Int64 = 1
      context = try Context()
      let unique = UUID().uuidString.prefix(8)
      var configuration = BrokerConfiguration(
        controlEndpoints: ["inproc://c-\(unique)"], stateEndpoints: ["inproc://s-\(unique)"])
      configuration.heartbeatInterval = .milliseconds(50)
      let url = url
      configuration.sessionStore = {
        // A long query limit: the test, not the timeout, decides how the held commit ends.
        let link = PostgresLink(url: url, timeout: .seconds(20), logger: logger)
        return try PostgresSessionStore(
          link: link, zone: "hall", term: term, migrate: false, logger: logger)
      }
      broker = try BrokerThread(configuration: configuration, context: context, logger: logger)
      remote = try Socket(context, .dealer)
      try remote.connect("inproc://c-\(unique)")
      other = try Socket(context, .dealer)
      try other.connect("inproc://c-\(unique)")
      heartbeats = try Socket(context, .subscriber)
      try heartbeats.subscribe(WireProtocol.heartbeatTopic)
      try heartbeats.connect("inproc://s-\(unique)")
      locker = PostgresLink(url: url, timeout: .seconds(20), logger: logger)
    }

    deinit {
      locker.close()
      remote.close()
      other.close()
      heartbeats.close()
      broker.stop()
    }

    func register(_ screen: String) throws {
      var request = Tenfoot_V1_RegisterScreen()
      request.screenID = screen
      request.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 4))
      try send(.registerScreen(request), on: remote)
      let answer = try #require(try reply(on: remote), "no answer to the registration")
      guard case .ack = answer.body else {
        Issue.record("registration refused: \(answer.body)")
        return
      }
    }

    func press(_ id: String) -> Tenfoot_V1_Envelope.OneOf_Body {
      var input = Tenfoot_V1_Input()
      input.screenID = "main"
      input.key.key = .right
      input.key.phase = .down
      input.pressID = id
      return .input(input)
    }

    /// Takes the zone's row lock in an open transaction: the broker's commits wait on it.
    func holdZoneRow() throws {
      try locker.query("BEGIN")
      try locker.query("SELECT term FROM tenfoot_zone WHERE name = 'hall' FOR UPDATE")
    }

    /// Waits (bounded) until `count` sessions wait for a lock: the broker's commit is held.
    func waitForCommitsWaiting(_ count: Int) throws {
      let deadline = ContinuousClock.now + .seconds(10)
      while ContinuousClock.now < deadline {
        let waiting = try locker.query(
          "SELECT count(*)::int8 FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        if try waiting.rows.first?.decode(Int64.self) == Int64(count) { return }
        Thread.sleep(forTimeInterval: 0.01)
      }
      Issue.record("the broker's commit never waited on the test's lock")
    }

    /// Whether a heartbeat arrives within `seconds` (after dropping those queued before).
    func heartbeatArrives(within seconds: Double) throws -> Bool {
      while try SocketWait.message(on: heartbeats, within: 0) != nil {}
      return try SocketWait.message(on: heartbeats, within: seconds) != nil
    }
  }

  @Test(
    "while a press's commit waits on a lock the broker beats and answers; the press is acknowledged after"
  )
  func servesWhileCommitting() throws {
    let stack = try Stack(logger: logger)
    try stack.register("main")
    try stack.register("other")
    try stack.holdZoneRow()
    let pressed = try stack.send(stack.press("p1"), on: stack.remote)
    try stack.waitForCommitsWaiting(1)
    // The loop is free: heartbeats go on, a Hello and another screen's snapshot are answered.
    #expect(try stack.heartbeatArrives(within: 2), "no heartbeat while the commit was in flight")
    #expect(
      try stack.heartbeatArrives(within: 2), "no second heartbeat while the commit was in flight")
    let hello = try stack.send(.hello(.init()), on: stack.other)
    let welcome = try #require(
      try stack.reply(on: stack.other), "Hello unanswered during the commit")
    #expect(welcome.replyTo == hello)
    let snapshot = try stack.send(
      .snapshotRequest(.with { $0.screenID = "other" }), on: stack.other)
    let state = try #require(
      try stack.reply(on: stack.other), "snapshot unanswered during the commit")
    #expect(state.replyTo == snapshot)
    // The press is not acknowledged while its commit is held.
    #expect(try stack.reply(on: stack.remote, within: 0.2) == nil, "acknowledged before durable")
    #expect(try stack.postgres.psql("SELECT count(*) FROM tenfoot_press") == "0")
    try stack.locker.query("COMMIT")
    let ack = try #require(try stack.reply(on: stack.remote), "the press was never acknowledged")
    #expect(ack.replyTo == pressed)
    guard case .ack(let acknowledged) = ack.body else {
      Issue.record("the press was refused: \(ack.body)")
      return
    }
    #expect(acknowledged.focused == "r0c1")
    #expect(try stack.postgres.psql("SELECT press_id FROM tenfoot_press") == "p1")
  }

  @Test("a commit fenced while held refuses its press and every request gathered behind it")
  func failedCommitRefusesDependents() throws {
    let stack = try Stack(logger: logger)
    try stack.register("main")
    try stack.holdZoneRow()
    let first = try stack.send(stack.press("p1"), on: stack.remote)
    try stack.waitForCommitsWaiting(1)
    // Gathered behind the held commit, applied on top of p1: answered only with it.
    let second = try stack.send(stack.press("p2"), on: stack.remote)
    let snapshot = try stack.send(.snapshotRequest(.with { $0.screenID = "main" }), on: stack.other)
    #expect(try stack.reply(on: stack.other, within: 0.2) == nil, "a snapshot of uncommitted state")
    // A takeover: the term moves on while the commit waits, so its fence matches no row.
    try stack.locker.query("UPDATE tenfoot_zone SET term = term + 1 WHERE name = 'hall'")
    try stack.locker.query("COMMIT")
    for expected in [first, second] {
      let answer = try #require(try stack.reply(on: stack.remote), "press \(expected) unanswered")
      #expect(answer.replyTo == expected)
      guard case .error(let error) = answer.body else {
        Issue.record("acknowledged although its commit was fenced: \(answer.body)")
        continue
      }
      #expect(error.code == .storeUnavailable)
    }
    // The snapshot showed p1 and p2, which were put back: refused with them.
    let state = try #require(try stack.reply(on: stack.other), "the snapshot was never answered")
    #expect(state.replyTo == snapshot)
    guard case .error(let error) = state.body else {
      Issue.record("a snapshot of rolled-back presses went out: \(state.body)")
      return
    }
    #expect(error.code == .storeUnavailable)
    #expect(try stack.postgres.psql("SELECT count(*) FROM tenfoot_press") == "0")
  }
}
