import Logging
import PostgresNIO
import TenFootStore

/// The zone store's schema: versioned migrations, applied in order, each in its own
/// transaction under a transaction-level advisory lock so brokers starting together apply
/// each one once. Never edit a registered migration: add the next.
public enum ZoneSchema {
  /// A migration: its version, its name and its statements.
  struct Migration {
    var version: Int
    var name: String
    var statements: [String]
  }

  /// Every migration this TenFoot knows, oldest first.
  static let migrations: [Migration] = [
    Migration(
      version: 1, name: "zones-sessions-presses",
      statements: [
        // One row per zone: its term (grows at each takeover), the active broker and when it
        // last renewed its lease.
        """
        CREATE TABLE tenfoot_zone (
          name text PRIMARY KEY, term bigint NOT NULL, active text NOT NULL,
          renewed_at timestamptz NOT NULL DEFAULT now())
        """,
        // One row per screen session of a zone, written with the term that wrote it.
        """
        CREATE TABLE tenfoot_session (
          zone text NOT NULL, screen_id text NOT NULL, data jsonb NOT NULL, term bigint NOT NULL,
          PRIMARY KEY (zone, screen_id))
        """,
        // Every broker of a zone, active or standby, with when it was last heard of.
        """
        CREATE TABLE tenfoot_broker (
          zone text NOT NULL, name text NOT NULL, role text NOT NULL, term bigint NOT NULL,
          seen_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (zone, name))
        """,
        // Press ids already applied, so a retried press is applied once.
        """
        CREATE TABLE tenfoot_press (
          zone text NOT NULL, press_id text NOT NULL, term bigint NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (zone, press_id))
        """,
      ]),
    Migration(
      version: 2, name: "peers",
      statements: [
        // Each revision a peer row gets (insert, rename, revoke) is new and larger, so a
        // broker sees any change as a change of the zone's (count, sum of revisions).
        "CREATE SEQUENCE tenfoot_peer_revision",
        // The zone's allow-list: paired remotes and screens allowed by key. A revoke keeps the
        // row with `revoked_at` set (who was revoked, when, under which term).
        """
        CREATE TABLE tenfoot_peer (
          zone text NOT NULL, public_key text NOT NULL, peer_id text NOT NULL,
          name text NOT NULL, role text NOT NULL, added float8 NOT NULL,
          revoked_at timestamptz, term bigint NOT NULL,
          revision bigint NOT NULL DEFAULT nextval('tenfoot_peer_revision'),
          PRIMARY KEY (zone, public_key))
        """,
      ]),
    Migration(
      version: 3, name: "peer screens",
      statements: [
        // The screens a peer is bound to (a screen key's owned ids, a remote's or an app's
        // allowed ones), as JSON text: `null` (no list) or an array of ids.
        "ALTER TABLE tenfoot_peer ADD COLUMN screens text NOT NULL DEFAULT 'null'"
      ]),
  ]

  /// The newest version this TenFoot knows.
  public static var latest: Int { migrations.last?.version ?? 0 }

  /// Applies the migrations `link`'s database lacks; returns the versions applied. Throws
  /// `.newerFormat` if the database has migrations this TenFoot does not know.
  @discardableResult
  public static func migrate(_ link: PostgresLink, logger: Logger) throws(SessionStoreError)
    -> [Int]
  {
    try link.query(
      """
      CREATE TABLE IF NOT EXISTS tenfoot_migration (
        version integer PRIMARY KEY, name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now())
      """)
    var applied: [Int] = []
    for migration in migrations {
      if try apply(migration, link) {
        applied.append(migration.version)
        logger.notice(
          "store migration applied",
          metadata: [
            "store.url": "\(link.url)", "store.version": "\(migration.version)",
            "store.migration": "\(migration.name)",
          ])
      }
    }
    let newest = try link.query("SELECT coalesce(max(version), 0)::bigint FROM tenfoot_migration")
    let version = (try? newest.rows.first?.decode(Int64.self)) ?? 0
    guard version <= Int64(latest) else {
      throw .newerFormat(path: link.url.description, migrations: ["version \(version)"])
    }
    return applied
  }

  /// Applies `migration` unless it already was; returns whether it ran.
  private static func apply(_ migration: Migration, _ link: PostgresLink)
    throws(SessionStoreError) -> Bool
  {
    try link.query("BEGIN")
    do {
      try link.query("SELECT pg_advisory_xact_lock(\(Int64(migrationLockKey)))")
      let done = try link.query(
        "SELECT 1 FROM tenfoot_migration WHERE version = \(migration.version)")
      guard done.rows.isEmpty else {
        try link.query("COMMIT")
        return false
      }
      for statement in migration.statements { try link.query(PostgresQuery(unsafeSQL: statement)) }
      try link.query(
        "INSERT INTO tenfoot_migration (version, name) VALUES (\(migration.version), \(migration.name))"
      )
      try link.query("COMMIT")
      return true
    } catch {
      _ = try? link.query("ROLLBACK")
      throw error
    }
  }

  /// The advisory lock key migrations take (any constant no other lock of the store uses).
  static let migrationLockKey = 0x7E4F_0001
}
