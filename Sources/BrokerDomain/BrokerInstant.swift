/// A moment on the broker's monotonic clock, as data: the domain never reads a clock, the
/// runtime passes the time of each request. Measured from an arbitrary origin (the runtime's
/// monotonic clock's), so only differences between instants mean anything.
public struct BrokerInstant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
  /// The time since the clock's origin.
  public var sinceOrigin: Duration

  /// The instant `sinceOrigin` after the clock's origin.
  public init(sinceOrigin: Duration) {
    self.sinceOrigin = sinceOrigin
  }

  /// The clock's origin (tests start here).
  public static let origin = BrokerInstant(sinceOrigin: .zero)

  /// The instant of a monotonic clock reading in nanoseconds (the runtime's clock).
  public static func nanoseconds(_ value: UInt64) -> BrokerInstant {
    BrokerInstant(sinceOrigin: .nanoseconds(Int64(clamping: value)))
  }

  /// The instant in nanoseconds since the clock's origin (0 before it), for the engine's
  /// timed rules.
  public var nanoseconds: UInt64 { sinceOrigin.nanosecondsClamped }

  /// This instant moved by `duration`.
  public func advanced(by duration: Duration) -> BrokerInstant {
    BrokerInstant(sinceOrigin: sinceOrigin + duration)
  }

  /// The duration from this instant to `other` (negative if `other` is earlier).
  public func duration(to other: BrokerInstant) -> Duration {
    other.sinceOrigin - sinceOrigin
  }

  /// The instant `rhs` after `lhs`.
  public static func + (lhs: BrokerInstant, rhs: Duration) -> BrokerInstant {
    lhs.advanced(by: rhs)
  }

  /// Whether `lhs` comes before `rhs`.
  public static func < (lhs: BrokerInstant, rhs: BrokerInstant) -> Bool {
    lhs.sinceOrigin < rhs.sinceOrigin
  }

  /// The time since the origin, for logs.
  public var description: String { "\(sinceOrigin)" }
}

extension Duration {
  /// The duration in seconds, as a floating-point number.
  public var seconds: Double {
    let parts = components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }

  /// The duration in whole milliseconds, rounded up (a wait never ends early); 0 if negative.
  public var wholeMillisecondsRoundedUp: UInt64 {
    let parts = components
    guard parts.seconds >= 0, parts.seconds > 0 || parts.attoseconds > 0 else { return 0 }
    let perMillisecond: Int64 = 1_000_000_000_000_000
    let (millis, rest) = parts.attoseconds.quotientAndRemainder(dividingBy: perMillisecond)
    return UInt64(parts.seconds) * 1000 + UInt64(millis) + (rest > 0 ? 1 : 0)
  }

  /// The duration in whole seconds, rounded up; 0 if negative.
  public var wholeSecondsRoundedUp: UInt64 {
    let parts = components
    guard parts.seconds >= 0 else { return 0 }
    return UInt64(parts.seconds) + (parts.attoseconds > 0 ? 1 : 0)
  }
}

extension Duration {
  /// Whole nanoseconds, clamped to `0...UInt64.max`.
  var nanosecondsClamped: UInt64 {
    // A negative duration's components are both negative, or 0 seconds and negative
    // attoseconds (under a second): either is 0.
    guard self > .zero else { return 0 }
    let (seconds, attoseconds) = components
    let whole = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    guard !whole.overflow else { return .max }
    return whole.partialValue &+ UInt64(attoseconds / 1_000_000_000)
  }
}
