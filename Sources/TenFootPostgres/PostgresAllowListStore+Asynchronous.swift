import PostgresNIO
import TenFootSecurity

extension PostgresAllowListStore: AsynchronousAllowListSource {
  public func startWrite(
    _ change: (inout AllowList) -> Void,
    answered: @escaping @Sendable (Result<AllowList, StoreError>) -> Void
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
        answered(.success(changed))
      case .failure(let error):
        answered(.failure(.unavailable(path, "\(error)")))
      }
    }
    return nil
  }

  public func finishWrite(_ answer: Result<AllowList, StoreError>) throws(StoreError) {
    switch answer {
    case .success(let written):
      list = written
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
