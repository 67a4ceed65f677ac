import Foundation
import Logging
import PostgresNIO
import TenFootSecurity
import TenFootStore
import ZoneFencing

/// A zone's allow-list in PostgreSQL (`tenfoot_peer`), shared by the zone's brokers: a remote
/// paired on the active broker, a screen added by key, a revoke made with
/// `tenfoot-broker remotes revoke --store …` all hold for whichever broker is active next. The
/// broker loads the list when it takes the zone, and asks for changes at most every 100 ms
/// (one query for the zone's row count and sum of revisions: every insert, rename or revoke
/// gives its row a new, larger revision).
///
/// **Fencing.** The active broker writes under its term, as the session store does: the write
/// is one statement that changes rows only if the zone's term is still this broker's, locking
/// the zone's row (`FOR SHARE`) while it writes; an old term's write changes nothing and is
/// refused (`StoreError.fenced`, a `Fenced`). An operator's command has no term (`term` nil): its writes
/// are not fenced, since it is not a broker that could be stale.
///
/// A revoke keeps the row with `revoked_at` set, so the store shows who was revoked and when.
///
/// A broker's writes and checks go out without waiting (`startWrite`, `startCheck`: the query
/// runs and its rows are parsed on PostgreSQL's thread, the owner applies the result through
/// `finishWrite`, `finishCheck`); an operator's command reads and writes with `modify`, waiting.
///
/// Not thread-safe: one owner (the broker's loop thread, or a command) calls it.
public final class PostgresAllowListStore: AllowListSource {
  /// The store and zone, for logs (no password).
  public let path: String
  /// The zone.
  public let zone: String
  /// The term this broker writes under; nil for an operator's command (not fenced).
  public let term: Int64?
  public internal(set) var list = AllowList()
  /// Revoked peers' ids, as last loaded (for `remotes list`).
  public private(set) var revoked: [AllowList.Entry] = []
  /// Called (on the writing thread) when a write was refused because a newer term exists.
  public var onFenced: ((Fenced) -> Void)?
  /// The list lives in the store, not a file: the broker asks every 100 ms.
  public var watchedFile: String? { nil }
  let link: PostgresLink
  let logger: Logger
  /// The zone's (row count, sum of revisions) when the list was loaded.
  var fingerprint: [Int64] = []
  var nextCheck = ContinuousClock.now
  /// How often the store is asked for changes (a revoke holds within this).
  static let checkInterval = Duration.milliseconds(100)
  /// How long to wait after a failed check (the store is down: the loop must not wait on it
  /// ten times a second).
  static let retryInterval = Duration.seconds(1)

  /// Loads `zone`'s allow-list over `link` (the session store's connection, on the same
  /// thread); throws `.unavailable` if the store cannot be reached.
  public init(link: PostgresLink, zone: String, term: Int64?, logger: Logger) throws(StoreError) {
    self.link = link
    self.zone = zone
    self.term = term
    self.logger = logger
    path = "\(link.url) zone=\(zone)"
    try load()
  }

  @discardableResult
  public func reloadIfChanged() throws(StoreError) -> Bool {
    let now = ContinuousClock.now
    // A commit or write in flight on the link would hold the check up behind it: checked
    // once it is answered.
    guard now >= nextCheck, !link.isSending else { return false }
    nextCheck = now + Self.checkInterval
    let current: [Int64]
    do {
      current = Self.version(try link.query(Self.versionQuery(zone)))
    } catch {
      nextCheck = now + Self.retryInterval
      throw .unavailable(path, "\(error)")
    }
    guard current != fingerprint else { return false }
    try load()
    return true
  }

  /// Asks for the zone's version and, if it changed, its peers, in one round trip's worth of
  /// work on PostgreSQL's thread, where the rows are parsed too.
  public func startCheck(answered: @escaping @Sendable (AllowListCheck) -> Void) -> Bool {
    let now = ContinuousClock.now
    // A commit or write in flight on the link would hold the check up behind it: checked
    // once it is answered.
    guard now >= nextCheck, !link.isSending else { return false }
    nextCheck = now + Self.checkInterval
    let (zone, path, fingerprint, logger) = (zone, path, fingerprint, logger)
    link.send(
      { connection in
        connection.query(Self.versionQuery(zone), logger: logger).flatMap { result in
          guard Self.version(result) != fingerprint else {
            return connection.eventLoop.makeSucceededFuture(AllowListCheck.unchanged)
          }
          return connection.query(Self.peersQuery(zone), logger: logger).map {
            Self.parse($0, zone: zone, path: path)
          }
        }
      },
      answered: { answer in
        switch answer {
        case .success(let check): answered(check)
        case .failure(let error): answered(.failed(.unavailable(path, "\(error)"), version: nil))
        }
      })
    return true
  }

  public func finishCheck(_ check: AllowListCheck) throws(StoreError) -> Bool {
    switch check {
    case .unchanged: return false
    case .changed(let loaded, let revoked, let version):
      list = loaded
      self.revoked = revoked
      fingerprint = version
      return true
    case .failed(let error, _):
      nextCheck = ContinuousClock.now + Self.retryInterval
      throw error
    }
  }

  public func modify<R>(_ change: (inout AllowList) -> R) throws(StoreError) -> R {
    try load()  // The change applies to what the store holds now.
    var changed = list
    let result = change(&changed)
    guard let write = write(from: list, to: changed) else { return result }
    let written: PostgresQueryResult
    do {
      written = try link.query(write.query)
    } catch {
      throw .unavailable(path, "\(error)")
    }
    if let fenced = Self.refusal(written, upserts: write.upserts, path: path, term: term) {
      report(fenced)
      throw .fenced(fenced)
    }
    try load()
    return result
  }

  /// The statement that turns `old` into `new` in the store (upserting entries that are new or
  /// changed, revoking those that left), and how many rows it must upsert; nil if nothing
  /// changed. One statement, fenced by this broker's term (see the type).
  func write(from old: AllowList, to new: AllowList) -> (query: PostgresQuery, upserts: Int)? {
    let before = Dictionary(old.entries.map { ($0.publicKey, $0) }) { first, _ in first }
    let after = Dictionary(new.entries.map { ($0.publicKey, $0) }) { first, _ in first }
    let upserts = new.entries.filter { before[$0.publicKey] != $0 }
    let revokes = old.entries.map(\.publicKey).filter { after[$0] == nil }
    guard !upserts.isEmpty || !revokes.isEmpty else { return nil }
    // An operator's write (no term) passes the fence; a broker's passes only under its term.
    let fenced = term != nil
    let query: PostgresQuery = """
      WITH locked AS (
        SELECT 1 FROM tenfoot_zone WHERE name = \(zone) AND term = \(term ?? 0) FOR SHARE),
      fence AS (
        SELECT 1 FROM locked WHERE \(fenced) UNION ALL SELECT 1 WHERE NOT \(fenced)),
      upserted AS (
        INSERT INTO tenfoot_peer (zone, public_key, peer_id, name, role, added, screens, term)
        SELECT \(zone), p.key, p.id, p.name, p.role, p.added, p.screens, \(term ?? 0)
        FROM fence, unnest(\(upserts.map(\.publicKey))::text[], \(upserts.map(\.id))::text[],
          \(upserts.map(\.name))::text[], \(upserts.map(\.role.rawValue))::text[],
          \(upserts.map(\.added))::float8[], \(upserts.map(Self.screensText))::text[])
          AS p(key, id, name, role, added, screens)
        ON CONFLICT (zone, public_key) DO UPDATE SET peer_id = EXCLUDED.peer_id,
          name = EXCLUDED.name, role = EXCLUDED.role, added = EXCLUDED.added,
          screens = EXCLUDED.screens,
          revoked_at = NULL, term = EXCLUDED.term, revision = nextval('tenfoot_peer_revision')
        RETURNING 1),
      revoked AS (
        UPDATE tenfoot_peer SET revoked_at = now(), term = \(term ?? 0),
          revision = nextval('tenfoot_peer_revision')
        FROM fence WHERE zone = \(zone) AND public_key = ANY(\(revokes)::text[])
          AND revoked_at IS NULL
        RETURNING 1)
      SELECT (SELECT count(*) FROM fence), (SELECT count(*) FROM upserted),
        (SELECT count(*) FROM revoked)
      """
    return (query, upserts.count)
  }

  /// Why a write's `result` (the fence's, upserts' and revokes' counts) means it was refused:
  /// a newer term than `term` fenced it; nil when it wrote all `upserts` rows. The zone's new
  /// term is not known: the statement's snapshot predates the takeover its fence waited for.
  static func refusal(_ result: PostgresQueryResult, upserts: Int, path: String, term: Int64?)
    -> Fenced?
  {
    let counts = try? result.rows.first?.decode((Int64, Int64, Int64).self)
    guard let counts, counts.0 == 1, counts.1 == Int64(upserts) else {
      return Fenced(.allowList, store: path, term: term ?? 0)
    }
    return nil
  }

  /// Logs a fenced write and tells `onFenced` (on the owner's thread).
  func report(_ fenced: Fenced) {
    logger.warning(
      "allow-list write refused: fenced",
      metadata: ["store.url": "\(link.url)", "zone": "\(zone)", "zone.term": "\(term ?? 0)"])
    onFenced?(fenced)
  }

  /// An entry's screens as the `screens` column holds them (JSON: `null` or an array).
  static func screensText(_ entry: AllowList.Entry) -> String {
    guard let screens = entry.screens, let data = try? JSONEncoder().encode(screens) else {
      return "null"
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// The `screens` column read back.
  static func screens(_ text: String) -> [String]? {
    try? JSONDecoder().decode([String]?.self, from: Data(text.utf8))
  }

  /// Reads the zone's peers, allowed and revoked, and their fingerprint.
  private func load() throws(StoreError) {
    let result: PostgresQueryResult
    do {
      result = try link.query(Self.peersQuery(zone))
    } catch {
      nextCheck = ContinuousClock.now + Self.retryInterval
      throw .unavailable(path, "\(error)")
    }
    _ = try finishCheck(Self.parse(result, zone: zone, path: path))
  }

  /// The zone's row count and sum of revisions: every insert, rename or revoke changes it.
  static func versionQuery(_ zone: String) -> PostgresQuery {
    """
    SELECT count(*), coalesce(sum(revision), 0)::bigint FROM tenfoot_peer WHERE zone = \(zone)
    """
  }

  /// `versionQuery`'s answer read (an undecodable one matches no fingerprint).
  static func version(_ result: PostgresQueryResult) -> [Int64] {
    let counts = try? result.rows.first?.decode((Int64, Int64).self)
    return [counts?.0 ?? -1, counts?.1 ?? -1]
  }

  /// The zone's peers, allowed and revoked.
  static func peersQuery(_ zone: String) -> PostgresQuery {
    """
    SELECT public_key, name, role, added, revoked_at IS NOT NULL, revision, peer_id, screens
    FROM tenfoot_peer WHERE zone = \(zone) ORDER BY added, revision
    """
  }

  /// `peersQuery`'s rows as a list, its revoked entries and its fingerprint (on any thread).
  static func parse(_ result: PostgresQueryResult, zone: String, path: String) -> AllowListCheck {
    var loaded = AllowList()
    var revoked: [AllowList.Entry] = []
    var sum: Int64 = 0
    for row in result.rows {
      guard
        let (key, name, role, added, isRevoked, revision, id, screens) = try? row.decode(
          (String, String, String, Double, Bool, Int64, String, String).self),
        let role = AllowList.Role(rawValue: role)
      else {
        return .failed(
          .unreadable(path, "a peer row of zone \(zone) does not decode"), version: nil)
      }
      var entry = AllowList.Entry(
        publicKey: key, name: name, role: role, added: added, screens: Self.screens(screens))
      entry.id = id
      if isRevoked { revoked.append(entry) } else { loaded.entries.append(entry) }
      sum &+= revision
    }
    return .changed(loaded, revoked: revoked, version: [Int64(result.rows.count), sum])
  }
}
