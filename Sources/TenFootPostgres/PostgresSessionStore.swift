import Foundation
import Logging
import PostgresNIO
import TenFootStore
import ZoneFencing

/// A zone's sessions in PostgreSQL, written by the zone's active broker under its term.
///
/// **Fencing.** Every commit is one statement that writes only if the zone's term is still
/// this broker's, and locks the zone's row (`FOR SHARE`) while it writes:
///
/// ```sql
/// WITH fence AS (SELECT 1 FROM tenfoot_zone WHERE name = $zone AND term = $term FOR SHARE)
/// INSERT INTO tenfoot_session … SELECT … FROM fence, unnest($screens, $rows) …
/// ```
///
/// A takeover increments the term with an `UPDATE` of that row, so it waits for a commit in
/// flight to end, and the new broker loads the sessions after its increment: it sees every
/// write the old broker acknowledged, and every later write of the old term matches no zone
/// row, writes nothing and is refused (`SessionStoreError.fenced`). One statement is one
/// round trip and one transaction, so the batch is durable when PostgreSQL answers.
///
/// **Off the loop.** The broker's loop sends a commit (`startCommit`) and goes on serving; the
/// answer comes back on PostgreSQL's event loop thread, the loop is handed it and finishes the
/// commit (`finishCommit`). One commit is in flight at a time.
///
/// Not thread-safe: one owner (the broker's loop thread) calls it.
public final class PostgresSessionStore: AsynchronousSessionStore, PressDeduplicating {
  /// The store and zone, for logs (no password).
  public let path: String
  /// The zone.
  public let zone: String
  /// The term this broker writes under.
  public let term: Int64
  public private(set) var records: [String: SessionRow]
  /// Successful commits since opening.
  public private(set) var commits = 0
  /// Called (on the owner's thread, finishing the commit) when a write was refused because a newer term exists.
  public var onFenced: ((Fenced) -> Void)?
  /// Called (on the owner's thread, finishing the commit) when a commit was sent but not answered: it may have
  /// been applied, so the broker's sessions in memory may be behind the store. The zone's
  /// broker then steps down and takes the zone again, loading what the store holds (under a
  /// new term, whose increment waits for that commit if it is still running).
  public var onOutcomeUnknown: ((SessionStoreError) -> Void)?
  /// Set when a commit went unanswered. The broker rolled that batch back, so its sessions in
  /// memory may be behind the store: a later commit would write a press applied on the rolled
  /// back state over the committed one (and a retry of the unanswered press would be answered
  /// "applied" with its effect gone). So this store commits nothing more; every later commit
  /// fails with this error until the zone's broker has stepped down, and the next term's store
  /// loads what the store holds.
  private var unanswered: SessionStoreError?
  private let link: PostgresLink
  private let logger: Logger
  /// Press ids applied in this zone (loaded at takeover: the last hour's), oldest first.
  private var applied: Set<String> = []
  private var appliedOrder: [String] = []
  /// Press ids to record with the next commit.
  private var pending: [String] = []
  /// The commit in flight (sent, not finished): the rows it writes and the press ids it
  /// records (they count as applied until it ends).
  private var inFlight: (changed: [SessionRow], presses: [String])?
  /// The most press ids kept in memory.
  static let rememberedPresses = 100_000

  /// Connects, applies missing migrations and loads `zone`'s sessions; throws `.unavailable`
  /// if the store cannot be reached.
  public convenience init(url: PostgresURL, zone: String, term: Int64, logger: Logger)
    throws(SessionStoreError)
  {
    try self.init(
      link: PostgresLink(url: url, logger: logger), zone: zone, term: term, migrate: true,
      logger: logger)
  }

  /// Loads `zone`'s sessions over `link` (kept connected by a standby, so a takeover costs one
  /// query here), after applying missing migrations if `migrate`.
  public init(link: PostgresLink, zone: String, term: Int64, migrate: Bool, logger: Logger)
    throws(SessionStoreError)
  {
    self.zone = zone
    self.term = term
    self.logger = logger
    self.link = link
    path = "\(link.url) zone=\(zone)"
    if migrate { try ZoneSchema.migrate(link, logger: logger) }
    records = try Self.load(zone: zone, link: link)
    appliedOrder = try Self.loadPresses(zone: zone, link: link)
    applied = Set(appliedOrder)
    logger.info(
      "session store opened",
      metadata: [
        "store.url": "\(link.url)", "zone": "\(zone)", "zone.term": "\(term)",
        "store.screens": "\(records.count)",
      ])
  }

  /// The sessions of `zone` as the store holds them.
  static func load(zone: String, link: PostgresLink) throws(SessionStoreError) -> [String:
    SessionRow]
  {
    let result = try link.query(
      "SELECT screen_id, data::text FROM tenfoot_session WHERE zone = \(zone)")
    var records: [String: SessionRow] = [:]
    for row in result.rows {
      guard let (screen, text) = try? row.decode((String, String).self),
        let record = try? JSONDecoder().decode(SessionRow.self, from: Data(text.utf8))
      else {
        throw .unavailable(
          store: link.url.description, code: "",
          message: "a session row of zone \(zone) does not decode")
      }
      records[screen] = record
    }
    return records
  }

  /// Commits `changes` and waits (bounded by the link's timeout) for the answer: for callers
  /// that may wait (tests, tools); the broker's loop uses `startCommit` and `finishCommit`.
  public func commit(_ changes: some Collection<SessionRow>) throws(SessionStoreError) {
    let done = DispatchSemaphore(value: 0)
    let answer = Answer()
    if let result = startCommit(changes, answered: { answer.set($0, done) }) {
      return try result.get()
    }
    // `send` always answers (its own timeout); the bound is a guard against a lost callback.
    let bound = Int(link.timeout.nanoseconds) * 3 + 1_000_000_000
    let lost = SessionStoreError.outcomeUnknown(store: path, message: "no answer came back")
    let result = done.wait(timeout: .now() + .nanoseconds(bound)) == .success ? answer.result : nil
    try finishCommit(result ?? .failure(lost))
  }

  public func startCommit(
    _ changes: some Collection<SessionRow>,
    answered: @escaping @Sendable (Result<Void, SessionStoreError>) -> Void
  ) -> Result<Void, SessionStoreError>? {
    precondition(inFlight == nil, "a commit is in flight already: finish it first")
    if let unanswered {
      pending = []
      return .failure(unanswered)
    }
    let changed = changes.filter { records[$0.screenID] != $0 }
    let presses = pending
    pending = []
    guard !changed.isEmpty || !presses.isEmpty else { return .success(()) }
    inFlight = (changed, presses)
    let write = Self.write(
      zone: zone, term: term, screens: changed.map(\.screenID), rows: changed.map(CompactJSON.row),
      presses: presses)
    let (zone, term, path, logger) = (zone, term, path, logger)
    let expected = Int64(changed.count)
    link.send(
      { connection in
        connection.query(write, logger: logger).flatMap { result in
          let counts = try? result.rows.first?.decode((Int64, Int64).self)
          if let counts, counts.0 == 1, counts.1 == expected {
            return connection.eventLoop.makeSucceededFuture(.success(()))
          }
          // Written under an older term: nothing was, and the current term says why.
          return connection.query(
            "SELECT term FROM tenfoot_zone WHERE name = \(zone)", logger: logger
          )
          .map { try? $0.rows.first?.decode(Int64.self) }
          .recover { _ in nil }
          .map { .failure(.fenced(Fenced(.sessions, store: path, term: term, current: $0))) }
        }
      },
      answered: { answered($0.flatMap { $0 }) })
    return nil
  }

  public func finishCommit(_ answer: Result<Void, SessionStoreError>) throws(SessionStoreError) {
    guard let sent = inFlight else {
      preconditionFailure("finishing a commit that was not sent")
    }
    inFlight = nil
    switch answer {
    case .success:
      for record in sent.changed { records[record.screenID] = record }
      remember(sent.presses)
      commits += 1
    case .failure(let failure):
      if case .outcomeUnknown(_, let message) = failure {
        unanswered = failure
        logger.error(
          "session store commit unanswered: it may have been applied; no more commits this term",
          metadata: ["store.url": "\(link.url)", "zone": "\(zone)", "error": "\(message)"])
        onOutcomeUnknown?(failure)
      } else if case .fenced(let fenced) = failure {
        onFenced?(fenced)
      }
      throw failure
    }
  }

  /// The fenced write of a batch: one statement, one round trip, one transaction.
  private static func write(
    zone: String, term: Int64, screens: [String], rows: [String], presses: [String]
  ) -> PostgresQuery {
    """
    WITH fence AS (
      SELECT 1 FROM tenfoot_zone WHERE name = \(zone) AND term = \(term) FOR SHARE),
    sessions AS (
      INSERT INTO tenfoot_session (zone, screen_id, data, term)
      SELECT \(zone), s.screen_id, s.data::jsonb, \(term)
      FROM fence, unnest(\(screens)::text[], \(rows)::text[]) AS s(screen_id, data)
      ON CONFLICT (zone, screen_id) DO UPDATE SET data = EXCLUDED.data, term = EXCLUDED.term
      RETURNING 1),
    presses AS (
      INSERT INTO tenfoot_press (zone, press_id, term)
      SELECT \(zone), p.id, \(term) FROM fence, unnest(\(presses)::text[]) AS p(id)
      ON CONFLICT (zone, press_id) DO NOTHING RETURNING 1)
    SELECT (SELECT count(*) FROM fence), (SELECT count(*) FROM sessions)
    """
  }

  /// Whether `press` was applied, is being committed or waits for the next commit.
  public func hasApplied(press: String) -> Bool {
    applied.contains(press) || pending.contains(press)
      || inFlight?.presses.contains(press) == true
  }

  public func willApply(press: String) { pending.append(press) }

  public func forget(press: String) { pending.removeAll { $0 == press } }

  /// Adds committed press ids, forgetting the oldest past `rememberedPresses`.
  private func remember(_ presses: [String]) {
    for press in presses where applied.insert(press).inserted { appliedOrder.append(press) }
    if appliedOrder.count > Self.rememberedPresses {
      let dropped = appliedOrder.count - Self.rememberedPresses
      for press in appliedOrder.prefix(dropped) { applied.remove(press) }
      appliedOrder.removeFirst(dropped)
    }
  }

  /// The press ids of `zone` applied in the last hour, oldest first.
  static func loadPresses(zone: String, link: PostgresLink) throws(SessionStoreError) -> [String] {
    let result = try link.query(
      """
      SELECT press_id FROM (
        SELECT press_id, applied_at FROM tenfoot_press
        WHERE zone = \(zone) AND applied_at > now() - interval '1 hour'
        ORDER BY applied_at DESC LIMIT \(rememberedPresses)) AS recent
      ORDER BY applied_at
      """)
    return result.rows.compactMap { try? $0.decode(String.self) }
  }

  /// Closes the connection.
  public func close() { link.close() }
}

/// The answer to a commit handed from PostgreSQL's event loop to `commit`'s waiting thread.
private final class Answer: @unchecked Sendable {
  // @unchecked Sendable is sound: `stored` is only touched under `lock`.
  private let lock = NSLock()
  private var stored: Result<Void, SessionStoreError>?

  func set(_ result: Result<Void, SessionStoreError>, _ done: DispatchSemaphore) {
    lock.withLock { stored = result }
    done.signal()
  }

  var result: Result<Void, SessionStoreError>? { lock.withLock { stored } }
}
