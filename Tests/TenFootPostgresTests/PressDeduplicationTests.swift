import BrokerCore
import FocusEngine
import Foundation
import Logging
import TenFootPostgres
import TenFootProtocol
import TenFootStore
import TestSupport
import Testing
import ZeroMQ

/// A broker on the zone store over a real socket: a press sent again with the same id (a
/// remote's retry) moves focus once, also after a takeover by the next term's broker.
@Suite("Press ids on the zone store", .enabled(if: TestPostgres.shouldRun), .serialized)
struct PressDeduplicationTests {
  let logger = Logger(label: "test")

  /// A broker of zone "hall" under `term`, and a DEALER to it.
  final class ZoneBroker {
    let context: Context
    let broker: BrokerThread
    let dealer: Socket
    var seq: UInt64 = 0

    init(url: PostgresURL, term: Int64, logger: Logger) throws {
      context = try Context()
      let unique = UUID().uuidString.prefix(8)
      var configuration = BrokerConfiguration(
        controlEndpoints: ["inproc://c-\(unique)"], stateEndpoints: ["inproc://s-\(unique)"])
      configuration.sessionStore = {
        try PostgresSessionStore(url: url, zone: "hall", term: term, logger: logger)
      }
      broker = try BrokerThread(configuration: configuration, context: context, logger: logger)
      dealer = try Socket(context, .dealer)
      try dealer.connect("inproc://c-\(unique)")
    }

    deinit {
      dealer.close()
      broker.stop()
    }

    func request(_ body: Tenfoot_V1_Envelope.OneOf_Body) throws -> Tenfoot_V1_Envelope.OneOf_Body {
      seq += 1
      let envelope = Tenfoot_V1_Envelope(sender: "test", seq: seq, sentAtNanoseconds: 1, body: body)
      try dealer.send(frames: [envelope.encoded()])
      let reply = try #require(
        try SocketWait.message(on: dealer, within: 5), "the broker did not reply in 5 s")
      return try #require(try Tenfoot_V1_Envelope.decode(reply[0]).body)
    }

    func register() throws {
      var request = Tenfoot_V1_RegisterScreen()
      request.screenID = "main"
      request.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 4))
      _ = try self.request(.registerScreen(request))
    }

    /// Presses `key` (down, then up: one input each, ids `pressID` and `pressID`-up);
    /// returns the focused item the last ack reports.
    func press(_ key: Tenfoot_V1_Key, id pressID: String) throws -> String? {
      var focused: String?
      for (phase, id) in [(Tenfoot_V1_KeyPhase.down, pressID), (.up, pressID + "-up")] {
        var input = Tenfoot_V1_Input()
        input.screenID = "main"
        input.key.key = key
        input.key.phase = phase
        input.pressID = id
        guard case .ack(let ack) = try request(.input(input)) else { return nil }
        focused = ack.hasFocused ? ack.focused : nil
      }
      return focused
    }
  }

  @Test("a retried press id is acknowledged but applied once, before and after a takeover")
  func retriedPressAppliedOnce() throws {
    let zone = try HallZone(logger: logger)
    let (postgres, url, a) = (zone.postgres, zone.url, zone.a)
    do {
      let first = try ZoneBroker(url: url, term: 1, logger: logger)
      try first.register()
      #expect(try first.press(.right, id: "p1") == "r0c1")
      #expect(try first.press(.right, id: "p1") == "r0c1", "the retry moved focus again")
      #expect(try first.press(.right, id: "p2") == "r0c2")
    }
    a.resign()
    let b = ZoneLeadership(url: url, zone: "hall", name: "b", logger: logger)
    #expect(try b.takeOver() == 2)
    let second = try ZoneBroker(url: url, term: 2, logger: logger)
    try second.register()
    #expect(try second.press(.right, id: "p2") == "r0c2", "a press of term 1 applied again")
    #expect(try second.press(.right, id: "p3") == "r0c3")
    let recorded = try postgres.psql("SELECT press_id || ':' || term FROM tenfoot_press")
    #expect(
      Set(recorded.split(separator: "\n").map(String.init))
        == ["p1:1", "p1-up:1", "p2:1", "p2-up:1", "p3:2", "p3-up:2"], "\(recorded)")
  }
}
