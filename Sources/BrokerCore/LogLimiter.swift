import BrokerDomain
import Logging

/// Rate limits repetitive log lines (bad input from a peer can arrive thousands of times a
/// second): at most `limit` lines per key in each `window`; the next line after a quiet spell
/// reports how many were suppressed. Time comes in as values (``BrokerInstant``), so the
/// rule is tested without a clock.
public struct LogLimiter: Sendable {
  private struct Window: Sendable {
    var start: BrokerInstant
    var count: Int
    var suppressed: Int
  }

  /// Lines allowed per key in one window.
  public let limit: Int
  /// How long a window lasts.
  public let window: Duration
  private var windows: [String: Window] = [:]

  /// A limiter allowing `limit` lines per key in every `window` (by default, a second).
  public init(limit: Int = 5, per window: Duration = .seconds(1)) {
    self.limit = limit
    self.window = window
  }

  /// Whether to log a line for `key` at `now`; when it says yes, `suppressed` is the number
  /// of lines dropped for that key since the last one logged.
  public mutating func allow(_ key: String, at now: BrokerInstant) -> (log: Bool, suppressed: Int) {
    var current = windows[key] ?? Window(start: now, count: 0, suppressed: 0)
    if current.start.duration(to: now) >= window {
      current.start = now
      current.count = 0
    }
    guard current.count < limit else {
      current.suppressed += 1
      windows[key] = current
      return (false, 0)
    }
    current.count += 1
    let suppressed = current.suppressed
    current.suppressed = 0
    if windows.count > 1000 { windows.removeAll() }  // Keys are a fixed set; this is a guard.
    windows[key] = current
    return (true, suppressed)
  }
}

extension LogLimiter {
  /// Logs `message` at `level` unless more than `limit` lines for `key` (default: the message
  /// itself) came in this window; the first line after a suppressed spell carries
  /// `log.suppressed`, the number of lines dropped. The one way the broker rate-limits a log
  /// line.
  mutating func log(
    _ level: Logger.Level, _ message: Logger.Message, metadata: Logger.Metadata = [:],
    key: String? = nil, to logger: Logger, at now: BrokerInstant
  ) {
    let decision = allow(key ?? message.description, at: now)
    guard decision.log else { return }
    var metadata = metadata
    if decision.suppressed > 0 { metadata["log.suppressed"] = "\(decision.suppressed)" }
    logger.log(level: level, message, metadata: metadata)
  }
}
