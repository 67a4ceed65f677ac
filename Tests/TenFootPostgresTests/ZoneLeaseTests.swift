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
