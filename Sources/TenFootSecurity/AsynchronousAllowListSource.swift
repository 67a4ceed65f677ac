/// An allow-list whose writes are network round trips (a zone's PostgreSQL store): the owner
/// starts a write and goes on with its work; the answer arrives on another thread and the
/// owner ends the write on its own thread, so its loop never waits on the network.
///
/// The change applies to the list as last loaded (at most a check interval old): each entry
/// is written by key, so a change another process made meanwhile to other keys is kept, and
/// the next check reloads it.
public protocol AsynchronousAllowListSource: AllowListSource {
  /// Applies `change` to the list as last loaded and sends the result as one write; returns
  /// at once. Returns nil when the write was sent: `answered` is then called once, on another
  /// thread, with what to pass to `finishWrite` on the owner's thread. Returns the write's
  /// result when it ended without a round trip (nothing changed), and `answered` is never
  /// called.
  func startWrite(
    _ change: (inout AllowList) -> Void,
    answered: @escaping @Sendable (Result<AllowList, StoreError>) -> Void
  ) -> Result<Void, StoreError>?

  /// Ends a write with the answer `startWrite`'s `answered` got: on success `list` is the
  /// list it wrote (and the next check reloads what else changed); on failure `list` stays and
  /// the error is thrown.
  func finishWrite(_ answer: Result<AllowList, StoreError>) throws(StoreError)
}
