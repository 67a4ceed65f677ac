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
  /// Drops `press` from those to record with the next commit: the batch that applied it was
  /// rolled back before it was sent (it was gathering behind a commit that failed).
  func forget(press: String)
}

/// A store whose commit is a network round trip (a zone's PostgreSQL store): the broker's loop
/// sends a batch and goes on serving while it is in flight; the store's answer arrives on
/// another thread, which hands it to the loop, and the loop finishes the commit on its own
/// thread. At most one commit is in flight. The embedded SQLite store is not one: its commit is
/// a local fsync, made on the loop.
public protocol AsynchronousSessionStore: DurableSessionStore {
  /// Sends `changes` (with the press ids to record) as one transaction and returns at once:
  /// nil when it was sent, and `answered` is then called once, on another thread, with what
  /// to pass to `finishCommit` on the owner's thread; or the commit's result when it ended
  /// without a round trip (nothing to write, or refused at once), and `answered` is never
  /// called. Press ids recorded so far count as applied until the commit ends.
  func startCommit(
    _ changes: some Collection<SessionRow>,
    answered: @escaping @Sendable (Result<Void, SessionStoreError>) -> Void
  ) -> Result<Void, SessionStoreError>?
  /// Ends the commit in flight with the answer `startCommit`'s `answered` got: on success its
  /// rows are in `records` and its press ids applied; on failure neither, and the error is
  /// thrown.
  func finishCommit(_ answer: Result<Void, SessionStoreError>) throws(SessionStoreError)
}
