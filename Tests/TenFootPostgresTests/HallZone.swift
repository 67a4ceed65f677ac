import Foundation
import Logging
import TenFootPostgres
import TestSupport
import Testing

/// A throw-away PostgreSQL cluster holding zone "hall" and two of its brokers' leaderships:
/// `a` has migrated the schema and is active in term 1, `b` (the standby) has not asked yet.
/// The set-up the zone's store, allow-list and press tests share.
struct HallZone {
  let postgres: TestPostgres
  let url: PostgresURL
  let a: ZoneLeadership
  let b: ZoneLeadership

  init(lease: Duration = ZoneLeadership.defaultLease, logger: Logger) throws {
    postgres = try TestPostgres()
    url = try #require(PostgresURL(postgres.url))
    a = ZoneLeadership(url: url, zone: "hall", name: "a", lease: lease, logger: logger)
    b = ZoneLeadership(url: url, zone: "hall", name: "b", lease: lease, logger: logger)
    try a.migrateOnceTheServerAnswers()
    let term = try a.tryToBecomeActive()
    try #require(term == 1, "broker a is not active in term 1: \(String(describing: term))")
  }
}

extension ZoneLeadership {
  /// `migrate()`, tried again while the store is unavailable, for at most `limit`: the first
  /// connection to a cluster just started (a fork, authentication, TLS) can take longer than
  /// the leadership's 480 ms query limit on a loaded machine, and these tests are not about
  /// that limit. Any other error, or the last one after `limit`, is thrown.
  func migrateOnceTheServerAnswers(within limit: Duration = .seconds(15)) throws {
    let deadline = ContinuousClock.now + limit
    while true {
      do {
        return try migrate()
      } catch .unavailable where ContinuousClock.now < deadline {
        // Refused at once (not yet listening): a short pause, not a hot loop.
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
  }
}
