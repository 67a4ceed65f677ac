#if canImport(Glibc)
  import Glibc
#endif

/// The process's monotonic clock (`CLOCK_MONOTONIC`), which every event timestamp and
/// `sent_at_ns` uses.
public enum MonotonicClock {
  /// Nanoseconds since an arbitrary point (boot), never going backwards.
  public static func nanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }

  /// Now, as an instant.
  public static var now: MonotonicInstant { MonotonicInstant(nanoseconds: nanoseconds()) }
}

/// An instant on the ``MonotonicClock``: what a remote stamps its input with. Code above the
/// wire adds and compares `Duration`s; the nanoseconds are read only where a timestamp goes on
/// the wire or comes from the kernel (an input event's time is on the same clock).
public struct MonotonicInstant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
  /// Nanoseconds since the clock's origin (boot).
  public var nanoseconds: UInt64

  /// The instant `nanoseconds` after the clock's origin.
  public init(nanoseconds: UInt64) {
    self.nanoseconds = nanoseconds
  }

  /// The instant `duration` later (earlier if negative), rounded to the nanosecond and kept
  /// within the clock's range.
  public func advanced(by duration: Duration) -> MonotonicInstant {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (step, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    guard !overflow, !carry else {
      return MonotonicInstant(nanoseconds: seconds < 0 ? 0 : .max)
    }
    if step < 0 {
      return MonotonicInstant(nanoseconds: nanoseconds -| step.magnitude)
    }
    let (sum, past) = nanoseconds.addingReportingOverflow(UInt64(step))
    return MonotonicInstant(nanoseconds: past ? .max : sum)
  }

  /// The duration from this instant to `other` (negative if `other` is earlier).
  public func duration(to other: MonotonicInstant) -> Duration {
    other.nanoseconds >= nanoseconds
      ? .nanoseconds(other.nanoseconds - nanoseconds)
      : .zero - .nanoseconds(nanoseconds - other.nanoseconds)
  }

  /// Whether `lhs` comes first.
  public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }

  /// The instant `duration` after `instant`.
  public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
    instant.advanced(by: duration)
  }

  /// The instant `duration` before `instant`.
  public static func - (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
    instant.advanced(by: .zero - duration)
  }

  /// Moves `instant` on by `duration`.
  public static func += (instant: inout MonotonicInstant, duration: Duration) {
    instant = instant.advanced(by: duration)
  }

  /// The duration from `earlier` to `later`.
  public static func - (later: MonotonicInstant, earlier: MonotonicInstant) -> Duration {
    earlier.duration(to: later)
  }

  /// `<nanoseconds> ns`.
  public var description: String { "\(nanoseconds) ns" }
}

extension UInt64 {
  /// Subtraction that stops at zero.
  fileprivate static func -| (lhs: UInt64, rhs: UInt64) -> UInt64 {
    lhs >= rhs ? lhs - rhs : 0
  }
}

infix operator -| : AdditionPrecedence
