/// Where the broker keeps its sessions durably: the embedded SQLite store (the default) or a
/// zone's PostgreSQL store shared by an active broker and its standbys.
///
/// One owner (the broker's loop thread) calls it.
public protocol DurableSessionStore: AnyObject {
  /// Where the store is, for logs (a file path, or a PostgreSQL URL without password and the
  /// zone).
  var path: String { get }
  /// The durable records, by screen id: what the store holds after the last commit.
  var records: [String: SessionRow] { get }
  /// Writes `changes` at once and returns once they are durable; on failure nothing of them
  /// is written and `records` is unchanged.
  func commit(_ changes: some Collection<SessionRow>) throws(SessionStoreError)
  /// Closes the store's file or connection.
  func close()
}

extension SessionStore: DurableSessionStore {}

/// A store that applies each press id at most once, across the terms of a zone (its
/// PostgreSQL store): a retried press is acknowledged without being applied again.
public protocol PressDeduplicating: AnyObject {
  /// Whether `press` was applied already (by this broker, or by an earlier term's).
  func hasApplied(press: String) -> Bool
  /// Records `press` as applied with the next commit, in the same transaction as the changes
  /// it made (a failed commit records neither).
  func willApply(press: String)
}
