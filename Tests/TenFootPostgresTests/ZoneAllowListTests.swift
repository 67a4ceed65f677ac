import Foundation
import Logging
import TenFootPostgres
import TenFootSecurity
import TenFootStore
import TestSupport
import Testing
import ZeroMQ
import ZoneFencing

/// The zone's allow-list on a real, throw-away PostgreSQL 15: what the active broker paired
/// and what an operator revoked hold for the broker that takes over; an old term's write is
/// refused; a change made elsewhere is seen by the active broker.
@Suite("Zone allow-list (PostgreSQL)", .enabled(if: TestPostgres.shouldRun), .serialized)
struct ZoneAllowListTests {
  let logger = Logger(label: "test")

  /// A CURVE public key (Z85), fresh each call.
  private func key() throws -> String { try CurveKeyPair.generate().publicKey }

  private func entry(_ key: String, _ name: String) -> AllowList.Entry {
    AllowList.Entry(publicKey: key, name: name, role: .remote, added: 1_700_000_000)
  }

  @Test("paired on the old active broker, revoked by the operator: the next term loads both")
  func takeoverLoadsPeersAndRevocations() throws {
    let zone = try HallZone(logger: logger)
    let (postgres, url, a, b) = (zone.postgres, zone.url, zone.a, zone.b)
    let linkA = PostgresLink(url: url, logger: logger)
    let peersA = try PostgresAllowListStore(link: linkA, zone: "hall", term: 1, logger: logger)
    let phone = try key()
    let tablet = try key()
    try peersA.modify { $0.allow(entry(phone, "phone")) }
    try peersA.modify { $0.allow(entry(tablet, "tablet")) }
    #expect(peersA.list.entries.map(\.name) == ["phone", "tablet"])
    // The operator revokes the tablet (`tenfoot-broker remotes revoke --store …`: no term).
    let operatorLink = PostgresLink(url: url, logger: logger)
    let operatorPeers = try PostgresAllowListStore(
      link: operatorLink, zone: "hall", term: nil, logger: logger)
    let revoked = try operatorPeers.modify { $0.revoke(AllowList.id(of: tablet)) }
    #expect(revoked.entry?.publicKey == tablet)
    // Another zone's list is its own.
    let lobby = try PostgresAllowListStore(
      link: operatorLink, zone: "lobby", term: nil, logger: logger)
    #expect(lobby.list.entries.isEmpty)
    a.resign()  // As a kill -9 would: the lock's connection closes.
    #expect(try b.takeOver() == 2)
    let peersB = try PostgresAllowListStore(
      link: PostgresLink(url: url, logger: logger), zone: "hall", term: 2, logger: logger)
    #expect(peersB.list.entry(publicKey: phone)?.name == "phone")
    #expect(peersB.list.entry(publicKey: tablet) == nil)
    #expect(peersB.revoked.map(\.publicKey) == [tablet])
    #expect(
      try postgres.psql(
        "SELECT name, revoked_at IS NOT NULL, term FROM tenfoot_peer WHERE zone = 'hall' ORDER BY name"
      ) == "phone|f|1\ntablet|t|0")
  }

  @Test("an old term's allow-list write is refused, reported fenced, and writes nothing")
  func oldTermIsFenced() throws {
    let zone = try HallZone(logger: logger)
    let (postgres, url, a, b) = (zone.postgres, zone.url, zone.a, zone.b)
    let peersA = try PostgresAllowListStore(
      link: PostgresLink(url: url, logger: logger), zone: "hall", term: 1, logger: logger)
    let phone = try key()
    try peersA.modify { $0.allow(entry(phone, "phone")) }
    a.resign()
    #expect(try b.takeOver() == 2)
    var reported: Fenced?
    peersA.onFenced = { reported = $0 }
    // a, paused past the takeover, finishes a pairing and tries to revoke: both refused.
    let late = try key()
    #expect {
      try peersA.modify { $0.allow(entry(late, "late")) }
    } throws: { error in
      guard case .fenced = error as? StoreError else { return false }
      return true
    }
    #expect {
      try peersA.modify { $0.revoke(AllowList.id(of: phone)) }
    } throws: { error in
      guard case .fenced = error as? StoreError else { return false }
      return true
    }
    #expect(
      reported == Fenced(.allowList, store: peersA.path, term: 1),
      "the fenced write was not reported with its store and term")
    #expect(
      try postgres.psql(
        "SELECT name, revoked_at IS NULL, term FROM tenfoot_peer WHERE zone = 'hall'")
        == "phone|t|1")
    // Under its own term, b writes.
    let peersB = try PostgresAllowListStore(
      link: PostgresLink(url: url, logger: logger), zone: "hall", term: 2, logger: logger)
    try peersB.modify { $0.allow(entry(late, "late")) }
    #expect(peersB.list.entries.count == 2)
  }

  @Test("the active broker sees a change made elsewhere within its 100 ms check")
  func activeBrokerSeesChanges() throws {
    let zone = try HallZone(logger: logger)
    let (postgres, url) = (zone.postgres, zone.url)
    let peers = try PostgresAllowListStore(
      link: PostgresLink(url: url, logger: logger), zone: "hall", term: 1, logger: logger)
    let operatorPeers = try PostgresAllowListStore(
      link: PostgresLink(url: url, logger: logger), zone: "hall", term: nil, logger: logger)
    let phone = try key()
    try operatorPeers.modify { $0.allow(entry(phone, "phone")) }
    #expect(try reloaded(peers))
    #expect(peers.list.entry(publicKey: phone) != nil)
    #expect(try !reloaded(peers), "nothing changed, yet the list was loaded again")
    try operatorPeers.modify { $0.allow(entry(phone, "phone renamed")) }
    #expect(try reloaded(peers))
    #expect(peers.list.entry(publicKey: phone)?.name == "phone renamed")
    try operatorPeers.modify { $0.revoke(phone) }
    #expect(try reloaded(peers))
    #expect(peers.list.entries.isEmpty)
    // With the store down the last good list stays; the check throws `.unavailable`.
    postgres.stop()
    #expect {
      _ = try reloaded(peers)
    } throws: { error in
      guard case .unavailable = error as? StoreError else { return false }
      return true
    }
  }

  /// Asks `peers` for changes once its check is due; returns whether it loaded the list again.
  private func reloaded(_ peers: PostgresAllowListStore) throws -> Bool {
    usleep(150_000)  // Past the 100 ms between checks (the store asks at most that often).
    return try peers.reloadIfChanged()
  }
}
