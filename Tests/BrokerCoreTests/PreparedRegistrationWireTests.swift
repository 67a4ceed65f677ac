import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

/// A large registration is worked out and its snapshot encoded off the loop
/// (`BrokerDomain.prepareRegistration`, `PreparationWorker`): the replies and the snapshots a
/// broker publishes must be those of a broker that does everything on its loop.
@Suite("Registrations prepared off the loop answer and publish as on the loop")
struct PreparedRegistrationWireTests {
  /// What one broker answered and published for a registration (or a press): the reply's
  /// body and the snapshot published for it (nil: none), envelopes' own seq and time left out.
  struct Served: Equatable {
    var reply: Tenfoot_V1_Envelope.OneOf_Body?
    var snapshot: Tenfoot_V1_ScreenState?
  }

  /// Registers a large layout as `main`, moves focus, registers a smaller one over it, on a
  /// broker whose large-message threshold is `threshold` bytes.
  static func serve(threshold: Int) throws -> [Served] {
    let context = try Context()
    defer { context.shutdown() }
    let directory = try TemporaryDirectory()
    let unique = UUID().uuidString.prefix(8)
    var configuration = BrokerConfiguration(
      controlEndpoints: ["inproc://prepared-c-\(unique)"],
      stateEndpoints: ["inproc://prepared-s-\(unique)"])
    configuration.epoch = 7
    configuration.sessionStoreDirectory = directory.path
    configuration.preparationThreshold = threshold
    configuration.peerByteRate = 1e9
    configuration.peerByteBurst = 1e9
    let broker = try BrokerThread(
      configuration: configuration, context: context, logger: Logger(label: "test"))
    defer { broker.stop() }
    let subscriber = try Socket(context, .subscriber)
    defer { subscriber.close() }
    try subscriber.subscribe("")
    try subscriber.connect(configuration.stateEndpoints[0])
    // The first heartbeat says the subscription is in place.
    _ = try #require(try SocketWait.message(on: subscriber, within: 10), "no heartbeat")
    let dealer = try Socket(context, .dealer)
    defer { dealer.close() }
    try dealer.connect(configuration.controlEndpoints[0])

    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    input.key.key = .right
    input.key.phase = .down
    let requests: [(Tenfoot_V1_Envelope.OneOf_Body, publishes: Bool)] = [
      (.registerScreen(registration(rows: 300)), true),
      (.input(input), false),
      (.registerScreen(registration(rows: 200)), true),
    ]
    var served: [Served] = []
    for (seq, (body, publishes)) in requests.enumerated() {
      try dealer.send(
        Tenfoot_V1_Envelope(sender: "a", seq: UInt64(seq + 1), sentAtNanoseconds: 1, body: body)
          .encoded())
      let reply = try #require(try SocketWait.message(on: dealer, within: 30), "no reply")
      var next = Served(reply: try Tenfoot_V1_Envelope.decode(reply[0]).body)
      while publishes, next.snapshot == nil {
        let frames = try #require(
          try SocketWait.message(on: subscriber, within: 10), "no snapshot published")
        if case .snapshot(let state) = try Tenfoot_V1_Envelope.decode(frames[1]).body {
          next.snapshot = state
        }
      }
      served.append(next)
    }
    return served
  }

  /// A registration of `main` with a grid of `rows` × 100 items (about 60 bytes an item).
  static func registration(rows: Int) -> Tenfoot_V1_RegisterScreen {
    var request = Tenfoot_V1_RegisterScreen()
    request.screenID = "main"
    request.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: rows, columns: 100))
    return request
  }

  @Test("a new screen and a replaced layout: the same acks and snapshots as on the loop")
  func sameAsOnTheLoop() throws {
    let prepared = try Self.serve(threshold: 64 * 1024)
    let onLoop = try Self.serve(threshold: .max)
    #expect(prepared.count == 3)
    #expect(prepared.map { $0.snapshot != nil } == [true, false, true])
    #expect(prepared == onLoop)
    if case .ack(let ack) = prepared.last?.reply { #expect(ack.focused == "r0c1") }
  }
}
