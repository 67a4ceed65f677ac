import PostgresNIO
import TenFootSecurity

/// A broker's writes: one fenced statement sent on the link without waiting, its answer read
/// on PostgreSQL's thread.
extension PostgresAllowListStore {
  /// Applies `change` to the list as last loaded (at most a check interval old) and sends the
  /// result as one write: each entry is written by key, so a change another process made
  /// meanwhile to other keys is kept, and the next check reloads it.
  public func startWrite(
    _ change: @escaping @Sendable (inout AllowList) -> Void,
    answered: @escaping @Sendable (Result<AllowListWrite, StoreError>) -> Void
  ) -> Result<Void, StoreError>? {
    var new = list
    change(&new)
    guard let write = write(from: list, to: new) else { return .success(()) }
    // The answer is read on the PostgreSQL thread: the closures get only values.
    let (changed, path, term, logger, query) = (new, path, term, logger, write.query)
    link.send({ connection in connection.query(query, logger: logger) }) { answer in
      switch answer {
      case .success(let result):
        if let fenced = Self.refusal(result, upserts: write.upserts, path: path, term: term) {
          return answered(.failure(.fenced(fenced)))
        }
        answered(.success(AllowListWrite(list: changed, version: [])))
      case .failure(let error):
        answered(.failure(.unavailable(path, "\(error)")))
      }
    }
    return nil
  }

  public func finishWrite(_ answer: Result<AllowListWrite, StoreError>) throws(StoreError) {
    switch answer {
    case .success(let written):
      list = written.list
      // The next check reloads, whatever fingerprint a load made while the write was in
      // flight saw: `written` was computed from an older list, and a revoke another process
      // wrote meanwhile must not be lost.
      fingerprint = []
      nextCheck = .now
    case .failure(let failure):
      if case .fenced(let fenced) = failure { report(fenced) }
      throw failure
    }
  }
}
