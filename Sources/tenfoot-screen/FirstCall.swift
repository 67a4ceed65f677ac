import Synchronization

/// True for the first `claim()` only, from any thread.
final class FirstCall: Sendable {
  private let claimed = Mutex(false)

  /// Whether this is the first call.
  func claim() -> Bool {
    claimed.withLock { claimed in
      defer { claimed = true }
      return !claimed
    }
  }
}
