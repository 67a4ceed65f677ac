import Foundation
import Logging
import TenFootPostgres
import TenFootStore
import TestSupport
import Testing
import ZoneFencing

/// The zone store on a real, throw-away PostgreSQL 15: migrations, sessions, the zone's lock
/// and term, fencing of an old term's writes, a stalled holder's lock ended, an outage.
@Suite("Zone store (PostgreSQL)", .enabled(if: TestPostgres.shouldRun), .serialized)
struct ZoneStoreTests {
  let logger = Logger(label: "test")

  private func row(_ screen: String, _ focused: String) -> SessionRow {
    SessionRow(screenID: screen, focused: focused, selected: ["r0c0"], text: ["q": "x"])
  }

  @Test("migrations run once, by the broker or by `store migrate`; a newer schema is refused")
  func migrations() throws {
    let postgres = try TestPostgres()
    let url = try #require(PostgresURL(postgres.url))
    let link = PostgresLink(url: url, logger: logger)
    #expect(try ZoneSchema.migrate(link, logger: logger) == [1, 2, 3])
    #expect(try ZoneSchema.migrate(link, logger: logger) == [])
    #expect(
      try postgres.psql("SELECT version, name FROM tenfoot_migration ORDER BY version")
        == "1|zones-sessions-presses\n2|peers\n3|peer screens")
    _ = try postgres.psql("INSERT INTO tenfoot_migration (version, name) VALUES (99, 'future')")
    #expect(
      throws: SessionStoreError.newerFormat(path: url.description, migrations: ["version 99"])
    ) {
      try ZoneSchema.migrate(link, logger: logger)
    }
  }

  @Test("the lock makes one broker active; the next takeover bumps the term and sees its writes")
  func takeoverSeesAcknowledgedWrites() throws {
    let zone = try HallZone(logger: logger)
    let (url, a, b) = (zone.url, zone.a, zone.b)
    #expect(try b.tryToBecomeActive() == nil)
    let storeA = try PostgresSessionStore(url: url, zone: "hall", term: 1, logger: logger)
    try storeA.commit([row("s1", "r0c1"), row("s2", "r1c1")])
    // Another zone has its own lock and term.
    let other = ZoneLeadership(url: url, zone: "lobby", name: "c", logger: logger)
    #expect(try other.tryToBecomeActive() == 1)
    a.resign()  // As a kill -9 would: the lock's connection closes.
    #expect(try b.takeOver() == 2)
    let storeB = try PostgresSessionStore(url: url, zone: "hall", term: 2, logger: logger)
    #expect(storeB.records["s1"] == row("s1", "r0c1"))
    #expect(storeB.records["s2"] == row("s2", "r1c1"))
    let lobby = try PostgresSessionStore(url: url, zone: "lobby", term: 1, logger: logger)
    #expect(lobby.records.isEmpty)
  }

  @Test("a write of an old term is refused, reported fenced, and changes nothing")
  func oldTermIsFenced() throws {
    let zone = try HallZone(logger: logger)
    let (postgres, url, a, b) = (zone.postgres, zone.url, zone.a, zone.b)
    let storeA = try PostgresSessionStore(url: url, zone: "hall", term: 1, logger: logger)
    storeA.willApply(press: "remote-1:1")
    #expect(storeA.hasApplied(press: "remote-1:1"))
    try storeA.commit([row("s1", "r0c1")])
    a.resign()
    #expect(try b.takeOver() == 2)
    let storeB = try PostgresSessionStore(url: url, zone: "hall", term: 2, logger: logger)
    try storeB.commit([row("s1", "r2c2")])
    var reported: Fenced?
    storeA.onFenced = { reported = $0 }
    let fenced = Fenced(.sessions, store: storeA.path, term: 1, current: 2)
    #expect(throws: SessionStoreError.fenced(fenced)) { try storeA.commit([row("s1", "r0c0")]) }
    #expect(reported == fenced)
    #expect(storeA.records["s1"] == row("s1", "r0c1"))
    storeA.willApply(press: "remote-1:2")
    #expect(throws: SessionStoreError.fenced(fenced)) { try storeA.commit([]) }
    // The store still holds the new term's write.
    #expect(try postgres.psql("SELECT data->>'focused', term FROM tenfoot_session") == "r2c2|2")
    // A press id applied under term 1 is known to term 2; one whose commit was refused is not.
    #expect(storeB.hasApplied(press: "remote-1:1"))
    #expect(!storeB.hasApplied(press: "remote-1:2"))
    #expect(try postgres.psql("SELECT press_id, term FROM tenfoot_press") == "remote-1:1|1")
  }

  @Test("a holder that stops renewing past its lease loses its lock to a standby")
  func stalledHolderLosesTheLock() throws {
    let lease = Duration.milliseconds(300)
    let zone = try HallZone(lease: lease, logger: logger)
    let (a, b) = (zone.a, zone.b)
    #expect(try b.tryToBecomeActive() == nil)
    // a is paused (renews nothing); b tries until the lease has run out and the lock is free.
    let deadline = ContinuousClock.now + .seconds(5)
    var term: Int64?
    while term == nil, ContinuousClock.now < deadline {
      term = try b.tryToBecomeActive()
      if term == nil { usleep(50_000) }
    }
    #expect(term == 2, "the standby did not take over within 5 s")
    #expect(throws: SessionStoreError.self) { try a.renew() }
  }

  @Test("with PostgreSQL down a commit is refused as unavailable; it works again by itself")
  func outageAndRecovery() throws {
    let zone = try HallZone(logger: logger)
    let (postgres, url) = (zone.postgres, zone.url)
    let store = try PostgresSessionStore(url: url, zone: "hall", term: 1, logger: logger)
    try store.commit([row("s1", "r0c1")])
    postgres.stop()
    // Refused: unavailable (nothing sent), or unanswered on the connection the stop broke.
    #expect {
      try store.commit([row("s1", "r0c2")])
    } throws: { error in
      switch error as? SessionStoreError {
      case .unavailable, .outcomeUnknown: true
      default: false
      }
    }
    #expect(store.records["s1"] == row("s1", "r0c1"))
    try postgres.start()
    try store.commit([row("s1", "r0c2")])
    #expect(store.records["s1"] == row("s1", "r0c2"))
  }

  @Test(
    "a commit left unanswered that did commit: the store commits nothing more this term, so nothing is written over it"
  )
  func unansweredCommitEndsTheTerm() throws {
    let zone = try HallZone(logger: logger)
    let (postgres, url, a) = (zone.postgres, zone.url, zone.a)
    let link = PostgresLink(url: url, timeout: .milliseconds(500), logger: logger)
    let store = try PostgresSessionStore(
      link: link, zone: "hall", term: 1, migrate: false, logger: logger)
    var unknown: SessionStoreError?
    store.onOutcomeUnknown = { unknown = $0 }
    try store.commit([row("s1", "r0c0")])
    // Another session holds the zone's row: the commit waits for it past the link's timeout.
    let blocker = PostgresLink(url: url, timeout: .seconds(5), logger: logger)
    try blocker.query("BEGIN")
    try blocker.query("SELECT 1 FROM tenfoot_zone WHERE name = 'hall' FOR UPDATE")
    store.willApply(press: "p1")
    #expect {
      try store.commit([row("s1", "r0c1")])
    } throws: { error in
      guard case .outcomeUnknown = error as? SessionStoreError else { return false }
      return true
    }
    #expect(unknown != nil, "the unanswered commit was not reported")
    #expect(!store.hasApplied(press: "p1"))
    try blocker.query("COMMIT")
    // The server runs the unanswered commit once the row is free.
    let deadline = ContinuousClock.now + .seconds(10)
    var landed = false
    while !landed, ContinuousClock.now < deadline {
      landed = try postgres.psql("SELECT count(*) FROM tenfoot_press WHERE press_id = 'p1'") == "1"
      if !landed { usleep(50_000) }
    }
    #expect(landed, "the unanswered commit never landed: the test proves nothing")
    // The broker's memory is behind (it rolled p1 back): a press applied there would write
    // r0c1 again over what p1 committed, with p2 recorded. The store refuses it.
    store.willApply(press: "p2")
    #expect {
      try store.commit([row("s1", "r0c2")])
    } throws: { error in
      guard case .outcomeUnknown = error as? SessionStoreError else { return false }
      return true
    }
    #expect(
      try postgres.psql(
        "SELECT data->>'focused' FROM tenfoot_session WHERE zone = 'hall' AND screen_id = 's1'")
        == "r0c1")
    #expect(try postgres.psql("SELECT count(*) FROM tenfoot_press WHERE press_id = 'p2'") == "0")
    // The next term's store loads what p1 committed: its retry is known.
    #expect(try a.tryToBecomeActive() == 2)
    let next = try PostgresSessionStore(
      link: link, zone: "hall", term: 2, migrate: false, logger: logger)
    #expect(next.hasApplied(press: "p1"), "a retry of p1 would be applied twice")
    #expect(next.records["s1"] == row("s1", "r0c1"))
  }
}
