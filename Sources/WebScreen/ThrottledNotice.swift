import Logging
import Synchronization

/// A notice logged at most once per `interval`, with the number of times it happened since
/// the last one logged (`count`): an attacker opening connections by the hundred makes one
/// line every few seconds, not a line each.
final class ThrottledNotice: Sendable {
  private let last = Mutex<(at: ContinuousClock.Instant?, count: Int)>((nil, 0))
  private let interval: Duration
  private let message: Logger.Message
  private let logger: Logger

  /// A notice saying `message` to `logger`, at most once per `interval`.
  init(_ message: Logger.Message, logger: Logger, interval: Duration = .seconds(10)) {
    self.message = message
    self.logger = logger
    self.interval = interval
  }

  /// It happened once more: logs the notice (with `metadata` and the count) unless one was
  /// logged within the interval.
  func happened(_ metadata: Logger.Metadata = [:], now: ContinuousClock.Instant = .now) {
    let count: Int? = last.withLock { last in
      last.count += 1
      if let at = last.at, now - at < interval { return nil }
      defer { last = (now, 0) }
      return last.count
    }
    guard let count else { return }
    var metadata = metadata
    metadata["count"] = "\(count)"
    logger.notice(message, metadata: metadata)
  }
}
