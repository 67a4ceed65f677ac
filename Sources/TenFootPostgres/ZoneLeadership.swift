import Foundation
import Logging
import PostgresNIO
import TenFootStore
import ZoneFencing

/// Who is active in a zone: the broker that holds the zone's session-level advisory lock on
/// its own connection to the store. The lock goes with that connection, so a broker that dies
/// (`kill -9`, a host lost) releases it at once and a standby takes it within one poll.
///
/// Taking the lock increments the zone's term; every write of the store carries the term
/// (see `PostgresSessionStore`), so an old active broker can no longer write. The active broker
/// renews a lease in the zone's row; a broker that holds the lock but stops renewing (paused,
/// `SIGSTOP`) past the lease has its lock connection ended by a standby
/// (`pg_terminate_backend`, allowed for the same role), which then takes over.
///
/// Not thread-safe: one owner (the broker process's main thread).
public final class ZoneLeadership {
  /// The zone.
  public let zone: String
  /// This broker's name in the zone (shown by `tenfoot-broker status`).
  public let name: String
  /// How long an active broker may go without renewing before a standby ends its lock.
  public let lease: Duration
  /// How often the active broker renews: a fifth of the lease, at most 200 ms, so a few
  /// renewals may be late before the lease runs out.
  public var renewInterval: Duration { min(.milliseconds(200), lease / 5) }
  /// How long a query on the lock connection may take: four fifths of the lease, 1.5 s at
  /// most. An active broker whose renewal goes unanswered this long steps down before a
  /// standby's view of the lease runs out.
  public let queryLimit: Duration
  /// The shortest lease `init` accepts: below it a store round trip under load could outlast it.
  public static let minimumLease: Duration = .milliseconds(250)
  /// The default lease: a host cut off is taken over in about 0.6 s and its screens follow
  /// the new broker within 1 s, while a store that answers the renewal (every 120 ms) within
  /// 0.48 s keeps the active broker active.
  public static let defaultLease: Duration = .milliseconds(600)
  private let link: PostgresLink
  private let logger: Logger
  /// The term while active.
  public private(set) var term: Int64?

  /// The two keys of the zone's advisory lock: a TenFoot constant and a hash of the zone.
  static let lockClass: Int32 = 0x7E4F

  /// A contender for `zone` on the store at `url`, with `lease` (at least `minimumLease`).
  /// Every broker of a zone should be given the same lease.
  public init(
    url: PostgresURL, zone: String, name: String, lease: Duration = defaultLease, logger: Logger
  ) {
    self.zone = zone
    self.name = name
    self.lease = max(lease, Self.minimumLease)
    queryLimit = min(.milliseconds(1500), self.lease * 4 / 5)
    self.logger = logger
    link = PostgresLink(
      url: url, timeout: .milliseconds(Int64(queryLimit / .milliseconds(1))), logger: logger)
  }

  /// Applies the schema's missing migrations.
  public func migrate() throws(SessionStoreError) { try ZoneSchema.migrate(link, logger: logger) }

  /// One attempt to become active: takes the lock if free (ending a stalled holder's lock
  /// first, once its lease ran out) and returns the new term, or nil while another broker
  /// is active. Throws `.unavailable` when the store cannot be reached.
  public func tryToBecomeActive() throws(SessionStoreError) -> Int64? {
    let taken = try link.query(
      "SELECT pg_try_advisory_lock(\(Self.lockClass), hashtext(\(zone)) & 2147483647)")
    guard (try? taken.rows.first?.decode(Bool.self)) == true else {
      try link.query(
        """
        INSERT INTO tenfoot_broker (zone, name, role, term) VALUES (\(zone), \(name), 'standby', 0)
        ON CONFLICT (zone, name) DO UPDATE SET role = 'standby', seen_at = now()
        """)
      try endStalledHolder()
      return nil
    }
    let bumped = try link.query(
      """
      INSERT INTO tenfoot_zone (name, term, active) VALUES (\(zone), 1, \(name))
      ON CONFLICT (name) DO UPDATE
        SET term = tenfoot_zone.term + 1, active = EXCLUDED.active, renewed_at = now()
      RETURNING term
      """)
    guard let term = try? bumped.rows.first?.decode(Int64.self) else {
      link.close()
      throw .unavailable(store: link.url.description, code: "", message: "no term returned")
    }
    self.term = term
    try? renew()
    return term
  }

  /// Ends the lock connection of an active broker that has not renewed within the lease.
  private func endStalledHolder() throws(SessionStoreError) {
    let milliseconds = Int64(lease / .milliseconds(1))
    let ended = try link.query(
      """
      SELECT pg_terminate_backend(l.pid), z.active, z.term FROM tenfoot_zone z
      JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
        AND l.classid::bigint = \(Int64(Self.lockClass))
        AND l.objid::bigint = (hashtext(z.name) & 2147483647)
      WHERE z.name = \(zone) AND z.renewed_at < now() - \(milliseconds) * interval '1 millisecond'
      """)
    for row in ended.rows {
      let (_, active, term) =
        (try? row.decode((Bool, String, Int64).self)) ?? (false, "?", Int64(0))
      logger.warning(
        "active broker stalled past its lease: its lock connection ended",
        metadata: [
          "zone": "\(zone)", "zone.active": "\(active)", "zone.term": "\(term)",
          "lease.ms": "\(milliseconds)",
        ])
    }
  }

  /// Renews the lease while active; throws `.fenced` if a newer term exists, `.unavailable`
  /// if the lock connection is gone (so is the lock: step down).
  public func renew() throws(SessionStoreError) {
    guard let term else { return }
    guard link.isConnected else {
      throw .unavailable(store: link.url.description, code: "", message: "lock connection lost")
    }
    let renewed = try link.query(
      """
      WITH z AS (
        UPDATE tenfoot_zone SET renewed_at = now() WHERE name = \(zone) AND term = \(term)
        RETURNING term)
      INSERT INTO tenfoot_broker (zone, name, role, term) SELECT \(zone), \(name), 'active', term FROM z
      ON CONFLICT (zone, name) DO UPDATE SET role = 'active', term = EXCLUDED.term, seen_at = now()
      """)
    guard renewed.metadata.rows == 1 else {
      throw .fenced(Fenced(.lease, store: "\(link.url) zone=\(zone)", term: term))
    }
  }

  /// Gives the lock up (closes its connection) and marks this broker a standby.
  public func resign() {
    term = nil
    link.close()
  }
}
