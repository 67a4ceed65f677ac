import Logging

/// Rate limits repetitive log lines (bad input from a peer can arrive thousands of times a
/// second): at most `perSecond` lines per key each second; the next line after a quiet spell
/// reports how many were suppressed.
public struct LogLimiter: Sendable {
  private struct Window: Sendable {
    var start: UInt64
    var count: Int
    var suppressed: Int
  }

  /// Lines allowed per key per second.
  public let perSecond: Int
  private var windows: [String: Window] = [:]

  /// A limiter allowing `perSecond` lines per key per second.
  public init(perSecond: Int = 5) { self.perSecond = perSecond }

  /// Whether to log a line for `key` at `now`; when it says yes, `suppressed` is the number
  /// of lines dropped for that key since the last one logged.
  public mutating func allow(_ key: String, now: UInt64) -> (log: Bool, suppressed: Int) {
    var window = windows[key] ?? Window(start: now, count: 0, suppressed: 0)
    if now &- window.start >= 1_000_000_000 {
      window.start = now
      window.count = 0
    }
    guard window.count < perSecond else {
      window.suppressed += 1
      windows[key] = window
      return (false, 0)
    }
    window.count += 1
    let suppressed = window.suppressed
    window.suppressed = 0
    if windows.count > 1000 { windows.removeAll() }  // Keys are a fixed set; this is a guard.
    windows[key] = window
    return (true, suppressed)
  }
}

extension LogLimiter {
  /// Logs `message` at `level` unless more than `perSecond` lines for `key` (default: the
  /// message itself) came this second; the first line after a suppressed spell carries
  /// `log.suppressed`, the number of lines dropped. The one way the broker rate-limits a log
  /// line.
  mutating func log(
    _ level: Logger.Level, _ message: Logger.Message, metadata: Logger.Metadata = [:],
    key: String? = nil, to logger: Logger, now: UInt64
  ) {
    let decision = allow(key ?? message.description, now: now)
    guard decision.log else { return }
    var metadata = metadata
    if decision.suppressed > 0 { metadata["log.suppressed"] = "\(decision.suppressed)" }
    logger.log(level: level, message, metadata: metadata)
  }
}
