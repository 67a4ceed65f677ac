import BrokerDomain
import TenFootProtocol

/// Where the broker's runtime reads the time its time-dependent rules run at (flood budgets,
/// pairing back-off and expiry, screen expiry, log limits, the allow-list re-check): the
/// monotonic clock in production, a clock a test sets by hand otherwise.
public struct BrokerClock: Sendable {
  private let read: @Sendable () -> BrokerInstant

  /// A clock that answers `read()`.
  public init(_ read: @escaping @Sendable () -> BrokerInstant) { self.read = read }

  /// The time now.
  public var now: BrokerInstant { read() }

  /// The process's monotonic clock (`CLOCK_MONOTONIC`).
  public static let monotonic = BrokerClock { .nanoseconds(MonotonicClock.nanoseconds()) }
}
