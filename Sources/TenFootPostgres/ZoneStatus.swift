import Foundation
import Logging
import PostgresNIO
import TenFootStore

/// What `tenfoot-broker status` prints about a zone: its term, the active broker (the lock's
/// holder) and when it last renewed, the brokers heard of lately, the store's health.
public struct ZoneStatus: Sendable, Equatable {
  /// A broker of the zone as it last reported itself.
  public struct Broker: Sendable, Equatable {
    public var name: String
    public var role: String
    public var secondsAgo: Double
  }

  public var zone: String
  /// The zone's term (0: no broker was ever active).
  public var term: Int64
  /// The broker that took the term, if any.
  public var active: String?
  /// Whether a connection holds the zone's lock now.
  public var lockHeld: Bool
  /// Seconds since the active broker last renewed its lease.
  public var renewedSecondsAgo: Double?
  /// Brokers heard of within the last 10 seconds.
  public var brokers: [Broker]
  /// The schema version and the server's version.
  public var schemaVersion: Int64
  public var server: String
  /// Sessions the zone keeps.
  public var sessions: Int64
  /// The round trip of one query, in milliseconds.
  public var roundTripMilliseconds: Double

  /// Reads the status of `zone` from the store at `url`.
  public static func read(url: PostgresURL, zone: String, logger: Logger)
    throws(SessionStoreError) -> ZoneStatus
  {
    let link = PostgresLink(url: url, logger: logger)
    try link.query("SELECT 1")  // Connects: the round trip below is one query's.
    let started = ContinuousClock.now
    let version = try link.query("SHOW server_version")
    let roundTrip = (ContinuousClock.now - started) / .microseconds(1) / 1000
    var status = ZoneStatus(
      zone: zone, term: 0, active: nil, lockHeld: false, renewedSecondsAgo: nil, brokers: [],
      schemaVersion: 0, server: (try? version.rows.first?.decode(String.self)) ?? "?",
      sessions: 0, roundTripMilliseconds: roundTrip)
    let exists = try link.query("SELECT to_regclass('tenfoot_migration') IS NOT NULL")
    guard (try? exists.rows.first?.decode(Bool.self)) == true else { return status }
    let schema = try link.query("SELECT coalesce(max(version), 0)::bigint FROM tenfoot_migration")
    status.schemaVersion = (try? schema.rows.first?.decode(Int64.self)) ?? 0
    let zoneRow = try link.query(
      """
      SELECT z.term, z.active, extract(epoch FROM now() - z.renewed_at)::float8,
        EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
          AND l.objsubid = 2 AND l.classid::bigint = \(Int64(ZoneLeadership.lockClass))
          AND l.objid::bigint = (hashtext(z.name) & 2147483647)),
        (SELECT count(*) FROM tenfoot_session s WHERE s.zone = z.name)
      FROM tenfoot_zone z WHERE z.name = \(zone)
      """)
    if let row = zoneRow.rows.first,
      let (term, active, ago, held, sessions) = try? row.decode(
        (Int64, String, Double, Bool, Int64).self)
    {
      status.term = term
      status.active = active
      status.renewedSecondsAgo = ago
      status.lockHeld = held
      status.sessions = sessions
    }
    let brokers = try link.query(
      """
      SELECT name, role, extract(epoch FROM now() - seen_at)::float8 FROM tenfoot_broker
      WHERE zone = \(zone) AND seen_at > now() - interval '10 seconds' ORDER BY role, name
      """)
    for row in brokers.rows {
      if let (name, role, ago) = try? row.decode((String, String, Double).self) {
        status.brokers.append(Broker(name: name, role: role, secondsAgo: ago))
      }
    }
    return status
  }
}
