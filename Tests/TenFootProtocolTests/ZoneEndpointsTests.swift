import TenFootProtocol
import Testing

/// How a client's timing follows the number of brokers it is given: one broker keeps the
/// relaxed single-broker values; a zone's list gets the faster ones that let a screen follow a
/// takeover within a second.
@Suite("Zone endpoints: lists, heartbeats and request timeouts")
struct ZoneEndpointsTests {
  @Test("a comma-separated list is split and trimmed; empty items are dropped")
  func list() {
    #expect(Endpoints.list(" tcp://a:7700 ,\ttcp://b:7700,,") == ["tcp://a:7700", "tcp://b:7700"])
    #expect(Endpoints.list("ipc:///tmp/x") == ["ipc:///tmp/x"])
    #expect(Endpoints.list(" , ").isEmpty)
  }

  @Test("one broker: 1 s / 5 s heartbeats and 1 s requests; a zone: 150 / 400 ms and 400 ms")
  func timing() {
    #expect(Endpoints.heartbeat(for: "tcp://a:7700") == (1000, 5000))
    #expect(Endpoints.heartbeat(for: "tcp://a:7700,") == (1000, 5000))
    #expect(Endpoints.heartbeat(for: "tcp://a:7700,tcp://b:7700") == (150, 400))
    #expect(Endpoints.requestTimeout(for: "tcp://a:7700") == .seconds(1))
    #expect(Endpoints.requestTimeout(for: "tcp://a:7700,tcp://b:7700") == .milliseconds(400))
  }
}
