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
    try a.migrate()
    let term = try a.tryToBecomeActive()
    try #require(term == 1, "broker a is not active in term 1: \(String(describing: term))")
  }
}
