import Foundation
import Logging
import TenFootPostgres
import Testing

/// What a zone's lease decides, without a store (nothing is connected until the first query).
@Suite("Zone lease")
struct ZoneLeaseTests {
  let logger = Logger(label: "test")

  @Test(
    "the lease sets the renewal interval and the lock connection's query limit; too short is raised"
  )
  func leaseDerivations() throws {
    let url = try #require(PostgresURL("postgres://tenfoot@127.0.0.1:1/tenfoot"))
    let standard = ZoneLeadership(url: url, zone: "hall", name: "a", logger: logger)
    #expect(standard.lease == ZoneLeadership.defaultLease)
    #expect(standard.lease == .milliseconds(600))
    #expect(standard.renewInterval == .milliseconds(120))
    #expect(standard.queryLimit == .milliseconds(480))
    let long = ZoneLeadership(url: url, zone: "hall", name: "a", lease: .seconds(5), logger: logger)
    #expect(long.renewInterval == .milliseconds(200))
    #expect(long.queryLimit == .milliseconds(1500))
    let tiny = ZoneLeadership(
      url: url, zone: "hall", name: "a", lease: .milliseconds(10), logger: logger)
    #expect(tiny.lease == ZoneLeadership.minimumLease)
  }
}

extension ZoneLeadership {
  /// Tries to take the zone until the lock is free (the previous holder's connection may take
  /// a moment to end on the server); nil after 5 s.
  func takeOver() throws -> Int64? {
    let deadline = ContinuousClock.now + .seconds(5)
    while ContinuousClock.now < deadline {
      if let term = try tryToBecomeActive() { return term }
      usleep(20_000)
    }
    return nil
  }
}
