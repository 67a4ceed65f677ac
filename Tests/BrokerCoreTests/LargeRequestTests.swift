import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

/// Large registrations are prepared off the broker's loop: other peers are served meanwhile,
/// and a peer's own later messages wait for them (real sockets, one broker thread).
@Suite("Large requests prepared off the loop")
struct LargeRequestTests {
  /// A broker thread with a data directory and two DEALERs, A (the large registrations) and B.
  final class Pair {
    let context: Context
    let broker: BrokerThread
    let peerA: Socket
    let peerB: Socket
    let directory: TemporaryDirectory

    init() throws {
      context = try Context()
      directory = try TemporaryDirectory()
      let unique = UUID().uuidString.prefix(8)
      var configuration = BrokerConfiguration(
        controlEndpoints: ["inproc://large-c-\(unique)"],
        stateEndpoints: ["inproc://large-s-\(unique)"])
      configuration.epoch = 7
      configuration.sessionStoreDirectory = directory.path
      // The byte budget would refuse the pipeline below: these tests are about the loop.
      configuration.peerByteRate = 1e9
      configuration.peerByteBurst = 1e9
      broker = try BrokerThread(
        configuration: configuration, context: context, logger: Logger(label: "test"))
      peerA = try Socket(context, .dealer)
      try peerA.connect(configuration.controlEndpoints[0])
      peerB = try Socket(context, .dealer)
      try peerB.connect(configuration.controlEndpoints[0])
    }

    deinit {
      peerA.close()
      peerB.close()
      broker.stop()
    }

    /// The next reply to `socket` within 10 s.
    func reply(_ socket: Socket, _ what: String) throws -> Tenfoot_V1_Envelope {
      var poller = Poller()
      poller.add(socket)
      try poller.poll(timeout: .seconds(10))
      let frame = try #require(try socket.receive(dontWait: true), "no reply to \(what) in 10 s")
      return try Tenfoot_V1_Envelope.decode(frame)
    }
  }

  /// A registration of `screen` with a grid of `rows` × 100 items (about 60 bytes an item).
  static func registration(_ screen: String, rows: Int, seq: UInt64) -> [UInt8] {
    var request = Tenfoot_V1_RegisterScreen()
    request.screenID = screen
    request.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: rows, columns: 100))
    return Tenfoot_V1_Envelope(
      sender: "a", seq: seq, sentAtNanoseconds: 1, body: .registerScreen(request)
    ).encoded()
  }

  static func envelope(_ body: Tenfoot_V1_Envelope.OneOf_Body, seq: UInt64) -> [UInt8] {
    Tenfoot_V1_Envelope(sender: "b", seq: seq, sentAtNanoseconds: 1, body: body).encoded()
  }

  @Test("another peer's Hello is answered while large registrations are in flight")
  func helloNotBehindLargeRegistrations() throws {
    let pair = try Pair()
    let frames = (1...3).map { Self.registration("big-\($0)", rows: 200, seq: UInt64($0)) }
    #expect(frames.allSatisfy { $0.count >= 64 * 1024 }, "each registration is a large one")
    for frame in frames { try pair.peerA.send(frame) }
    try pair.peerB.send(Self.envelope(.hello(.with { $0.role = .remote }), seq: 99))
    // B's Welcome must come before A's first ack: on the loop, A's first registration (read
    // before B's Hello was sent) would be served whole before the Hello.
    let welcome = try pair.reply(pair.peerB, "B's Hello")
    guard case .welcome = welcome.body else {
      Issue.record("expected a Welcome, got \(welcome.bodyName)")
      return
    }
    var poller = Poller()
    poller.add(pair.peerA)
    try poller.poll(timeout: .zero)
    #expect(
      !poller.isReadable(0), "A's registration was answered before B's Hello: it blocked the loop")
    for seq in 1...3 {
      let ack = try pair.reply(pair.peerA, "A's registration \(seq)")
      #expect(ack.replyTo == UInt64(seq))
      guard case .ack(let body) = ack.body else {
        Issue.record("registration \(seq): expected an ack, got \(ack)")
        continue
      }
      #expect(body.focused == "r0c0")
    }
  }

  @Test("a peer's input for the screen it registers is applied after the registration")
  func inputWaitsForItsConnectionsRegistration() throws {
    let pair = try Pair()
    try pair.peerA.send(Self.registration("main", rows: 200, seq: 1))
    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    input.key.key = .right
    input.key.phase = .down
    try pair.peerA.send(Self.envelope(.input(input), seq: 2))
    let registered = try pair.reply(pair.peerA, "the registration")
    #expect(registered.replyTo == 1)
    let moved = try pair.reply(pair.peerA, "the input")
    #expect(moved.replyTo == 2)
    guard case .ack(let ack) = moved.body else {
      Issue.record("the input overtook its registration: \(moved)")
      return
    }
    #expect(ack.focused == "r0c1")
  }

  @Test("the seq of an encoded envelope is read without decoding it")
  func peekSeq() {
    let frame = Self.registration("main", rows: 2, seq: 123_456_789)
    #expect(PreparationWorker.peekSeq(frame) == 123_456_789)
    #expect(PreparationWorker.peekSeq([0xff, 0xff]) == 0)
    #expect(PreparationWorker.peekSeq([]) == 0)
  }

  @Test("the ledger bounds bytes in flight and keeps each connection's order")
  func ledger() {
    var ledger = PreparationLedger<String>(
      bytesPerBudget: 100, bytesTotal: 150, queuedPerConnection: 1)
    let first = ledger.startPreparing(connection: [1], budget: [1], bytes: 60)
    #expect(first == .success(1))
    #expect(
      ledger.startPreparing(connection: [1], budget: [1], bytes: 60)
        == .failure(.bytes(inFlight: 60, limit: 100)))
    #expect(ledger.startPreparing(connection: [2], budget: [2], bytes: 80) == .success(2))
    #expect(
      ledger.startPreparing(connection: [3], budget: [3], bytes: 20)
        == .failure(.bytes(inFlight: 140, limit: 150)))
    #expect(ledger.isWaiting([1]) && !ledger.isWaiting([3]))
    #expect(ledger.queue("press", connection: [1]) == nil)
    #expect(ledger.queue("press 2", connection: [1]) == .queue(limit: 1))
    let done = PreparationWorker.Prepared(
      id: 1, peer: [1], access: .local, principal: .local, seq: 5, sender: "a",
      bodyName: "registerScreen", result: .request(.hello))
    let ready = ledger.finish(done)
    #expect(ready.count == 2)
    if case .prepared(let prepared, _, _) = ready.first {
      #expect(prepared.seq == 5)
    } else {
      Issue.record("the prepared message first, got \(ready)")
    }
    if case .small(let small) = ready.last {
      #expect(small == "press")
    } else {
      Issue.record("then the press queued behind it, got \(ready)")
    }
    #expect(!ledger.isWaiting([1]))
    #expect(ledger.totalBytes == 80)
  }
}
