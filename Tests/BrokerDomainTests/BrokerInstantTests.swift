import BrokerDomain
import Testing

/// The broker's instants as the engine's nanoseconds: one conversion, clamped at both ends.
@Suite("Broker instants")
struct BrokerInstantTests {
  @Test(
    "nanoseconds since the origin: exact, 0 before it, UInt64.max past its range",
    arguments: [
      (Duration.nanoseconds(1_500), UInt64(1_500)),
      (.seconds(3) + .nanoseconds(7), 3_000_000_007),
      (.nanoseconds(-1), 0),
      (.seconds(Int64.max / 2), UInt64.max),
    ])
  func nanoseconds(since origin: Duration, expected: UInt64) {
    #expect(BrokerInstant(sinceOrigin: origin).nanoseconds == expected)
  }

  @Test("an instant made from nanoseconds reads them back")
  func roundTrip() {
    #expect(BrokerInstant.nanoseconds(123_456_789_012).nanoseconds == 123_456_789_012)
  }
}
