import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

/// The broker loop wired over real sockets (inproc and ipc) in one process.
@Suite("Broker loop over real sockets")
struct BrokerLoopTests {
  /// A broker thread plus a DEALER and a SUB talking to it.
  final class Harness {
    let context: Context
    let broker: BrokerThread
    let dealer: Socket
    let subscriber: Socket
    var seq: UInt64 = 0

    init(
      transport: String, dataDirectory: String? = nil,
      configure: (inout BrokerConfiguration) -> Void = { _ in }
    ) throws {
      context = try Context()
      let unique = UUID().uuidString.prefix(8)
      let control = transport == "ipc" ? "ipc:///tmp/tf-bc-\(unique)-c" : "inproc://c-\(unique)"
      let state = transport == "ipc" ? "ipc:///tmp/tf-bc-\(unique)-s" : "inproc://s-\(unique)"
      var configuration = BrokerConfiguration(controlEndpoints: [control], stateEndpoints: [state])
      configuration.epoch = 42
      configuration.sessionStoreDirectory = dataDirectory
      configure(&configuration)
      broker = try BrokerThread(
        configuration: configuration, context: context, logger: Logger(label: "test"))
      dealer = try Socket(context, .dealer)
      try dealer.connect(control)
      subscriber = try Socket(context, .subscriber)
      try subscriber.subscribe("screen/")
      try subscriber.subscribe(WireProtocol.heartbeatTopic)
      try subscriber.connect(state)
    }

    /// Waits for the broker's first heartbeat (it publishes one every second): only then is the
    /// subscription known to be live, so nothing published afterwards can be missed.
    func waitUntilSubscribed() throws {
      while true {
        let published = try nextPublished()
        if published.topic == WireProtocol.heartbeatTopic { return }
      }
    }

    deinit {
      dealer.close()
      subscriber.close()
      broker.stop()
    }

    /// Sends raw frames and returns the decoded reply.
    func roundTrip(_ frames: [[UInt8]]) throws -> Tenfoot_V1_Envelope {
      try dealer.send(frames: frames)
      var poller = Poller()
      poller.add(dealer)
      try poller.poll(timeout: .seconds(5))
      let reply = try #require(
        try dealer.receive(dontWait: true), "the broker did not reply in 5 s")
      return try Tenfoot_V1_Envelope.decode(reply)
    }

    func request(_ body: Tenfoot_V1_Envelope.OneOf_Body) throws -> Tenfoot_V1_Envelope {
      seq += 1
      let envelope = Tenfoot_V1_Envelope(sender: "test", seq: seq, sentAtNanoseconds: 1, body: body)
      let reply = try roundTrip([envelope.encoded()])
      #expect(reply.replyTo == seq)
      return reply
    }

    func register(_ layout: Layout, id: String = "main") throws -> Tenfoot_V1_Envelope {
      var request = Tenfoot_V1_RegisterScreen()
      request.screenID = id
      request.layout = Tenfoot_V1_Layout(layout)
      return try self.request(.registerScreen(request))
    }

    func key(_ key: Tenfoot_V1_Key, _ phase: Tenfoot_V1_KeyPhase, screen: String = "main") throws
      -> Tenfoot_V1_Envelope
    {
      var input = Tenfoot_V1_Input()
      input.screenID = screen
      input.key.key = key
      input.key.phase = phase
      return try request(.input(input))
    }

    /// The next envelope published on a screen topic (heartbeats skipped).
    func nextScreenState() throws -> Tenfoot_V1_Envelope {
      while true {
        let published = try nextPublished()
        if published.topic != WireProtocol.heartbeatTopic { return published.envelope }
      }
    }

    /// The next published envelope on a screen topic.
    func nextPublished() throws -> (topic: String, envelope: Tenfoot_V1_Envelope) {
      var poller = Poller()
      poller.add(subscriber)
      try poller.poll(timeout: .seconds(5))
      let frames = try #require(
        try subscriber.receiveMultipart(dontWait: true), "nothing published within 5 s")
      return (String(decoding: frames[0], as: UTF8.self), try Tenfoot_V1_Envelope.decode(frames[1]))
    }
  }

  @Test("hello, register, input, snapshot", arguments: ["inproc", "ipc"])
  func fullFlow(_ transport: String) throws {
    let harness = try Harness(transport: transport)
    let welcome = try harness.request(.hello(.with { $0.role = .screen }))
    guard case .welcome(let body) = welcome.body else {
      Issue.record("expected welcome, got \(welcome.bodyName)")
      return
    }
    #expect(body.epoch == 42)
    #expect(body.protocolVersion == WireProtocol.version)
    #expect(body.screens.isEmpty)

    let registered = try harness.register(TestLayouts.grid(rows: 3, columns: 3))
    guard case .ack(let ack) = registered.body else {
      Issue.record("expected ack, got \(registered)")
      return
    }
    #expect(ack.focused == "r0c0")
    #expect(ack.stateSeq == 1)

    let moved = try harness.key(.right, .down)
    guard case .ack(let moveAck) = moved.body else {
      Issue.record("expected ack, got \(moved)")
      return
    }
    #expect(moveAck.focused == "r0c1")
    #expect(moveAck.stateSeq == 2)
    #expect(moveAck.effects.map(\.summary) == ["focus r0c0 → r0c1 (right)"])

    let snapshot = try harness.request(.snapshotRequest(.with { $0.screenID = "main" }))
    guard case .snapshot(let state) = snapshot.body else {
      Issue.record("expected snapshot, got \(snapshot)")
      return
    }
    #expect(state.seq == 2)
    #expect(state.epoch == 42)
    #expect(state.focused == "r0c1")
    #expect(state.states.count == 9)
    #expect(state.states.first { $0.id == "r0c1" }?.state == .focused)
    #expect(state.layout.items.count == 9)
  }

  @Test("garbage, unknown screens and wrong frame counts get typed errors; service goes on")
  func badInput() throws {
    let harness = try Harness(transport: "inproc")
    _ = try harness.register(TestLayouts.grid(rows: 2, columns: 2))

    let garbage = try harness.roundTrip([[0xFF, 0x00, 0x13, 0x37, 0xFF, 0xFF]])
    #expect(
      garbage.body
        == .error(
          .with {
            $0.code = .malformed; $0.message = garbage.error.message
          }))
    #expect(garbage.error.code == .malformed)
    #expect(garbage.error.message.contains("not a tenfoot.v1.Envelope"))

    let twoFrames = try harness.roundTrip([[1], [2]])
    #expect(twoFrames.error.code == .malformed)

    let unknown = try harness.key(.right, .down, screen: "nope")
    #expect(unknown.error.code == .unknownScreen)
    #expect(unknown.error.message.contains("\"nope\""))

    var wrongVersion = Tenfoot_V1_Envelope(
      sender: "t", seq: 99, sentAtNanoseconds: 0, body: .hello(.init()))
    wrongVersion.protocolVersion = 7
    #expect(try harness.roundTrip([wrongVersion.encoded()]).error.code == .unsupportedVersion)

    #expect(try harness.key(.unspecified, .down).error.code == .invalidInput)
    #expect(try harness.request(.ack(.init())).error.code == .unexpectedMessage)

    let valid = try harness.key(.down, .down)
    #expect(valid.ack.focused == "r1c0")
  }

  @Test("an invalid layout is refused with the path and reason")
  func invalidLayout() throws {
    let harness = try Harness(transport: "inproc")
    var layout = TestLayouts.grid(rows: 1, columns: 2)
    layout.items[1].id = layout.items[0].id
    let reply = try harness.register(layout)
    #expect(reply.error.code == .invalidLayout)
    #expect(reply.error.message.contains("items[1]"))
    let badID = try harness.register(TestLayouts.grid(rows: 1, columns: 1), id: "no spaces")
    #expect(badID.error.code == .invalidLayout)
  }

  @Test("deltas are published in sequence with the changed states and the cause")
  func deltas() throws {
    let harness = try Harness(transport: "inproc")
    try harness.waitUntilSubscribed()
    // Registration publishes a snapshot at seq 1.
    _ = try harness.register(TestLayouts.grid(rows: 3, columns: 3))
    var first = try harness.nextPublished()
    while case .heartbeat = first.envelope.body { first = try harness.nextPublished() }
    #expect(first.topic == "screen/main")
    #expect(first.envelope.snapshot.seq == 1)

    _ = try harness.key(.down, .down)
    _ = try harness.key(.select, .down)
    _ = try harness.key(.select, .up)
    var deltas: [Tenfoot_V1_StateDelta] = []
    while deltas.count < 3 {
      let published = try harness.nextPublished()
      if case .delta(let delta) = published.envelope.body { deltas.append(delta) }
    }
    #expect(deltas.map(\.seq) == [2, 3, 4])
    #expect(deltas[0].focused == "r1c0")
    #expect(Set(deltas[0].changed.map(\.id)) == ["r0c0", "r1c0"])
    #expect(deltas[1].changed.map(\.state) == [.highlighted])
    #expect(deltas[2].effects.map(\.summary) == ["activated r1c0", "r1c0 selected"])
    #expect(deltas[2].cause.sender == "test")
  }
}

extension Tenfoot_V1_Envelope {
  var error: Tenfoot_V1_Error {
    if case .error(let error) = body { return error }
    return Tenfoot_V1_Error()
  }
  var ack: Tenfoot_V1_Ack {
    if case .ack(let ack) = body { return ack }
    return Tenfoot_V1_Ack()
  }
  var snapshot: Tenfoot_V1_ScreenState {
    if case .snapshot(let state) = body { return state }
    return Tenfoot_V1_ScreenState()
  }
}
