import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TenFootSecurity
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

    init(adjust: (inout BrokerConfiguration) -> Void = { _ in }) throws {
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
      adjust(&configuration)
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

  /// The replies to `count` requests sent by `socket`, by the request's seq.
  static func replies(
    _ pair: Pair, _ socket: Socket, count: Int
  ) throws -> [UInt64: Tenfoot_V1_Envelope] {
    var replies: [UInt64: Tenfoot_V1_Envelope] = [:]
    for index in 0..<count {
      let reply = try pair.reply(socket, "reply \(index + 1) of \(count)")
      #expect(replies[reply.replyTo] == nil, "two replies to seq \(reply.replyTo)")
      replies[reply.replyTo] = reply
    }
    return replies
  }

  @Test("large messages over a peer's bytes in flight are refused RATE_LIMITED; the rest apply")
  func overBytesInFlight() throws {
    let frames = (1...8).map { Self.registration("big-\($0)", rows: 200, seq: UInt64($0)) }
    // Room for one registration in preparation at a time: the pipeline's later ones arrive
    // while the first is still being prepared (tens of milliseconds each) and are refused.
    let pair = try Pair { $0.preparationBytesPerPeer = frames[0].count * 3 / 2 }
    for frame in frames { try pair.peerA.send(frame) }
    try pair.peerB.send(Self.envelope(.hello(.with { $0.role = .remote }), seq: 99))
    let welcome = try pair.reply(pair.peerB, "B's Hello")
    #expect(welcome.bodyName == "welcome", "B is served: \(welcome)")

    let replies = try Self.replies(pair, pair.peerA, count: frames.count)
    #expect(Set(replies.keys) == Set(1...8), "one reply to each registration, by its seq")
    var refused: [UInt64] = []
    for (seq, reply) in replies.sorted(by: { $0.key < $1.key }) {
      switch reply.body {
      case .ack: continue
      case .error(let error) where error.code == .rateLimited:
        #expect(error.retryAfterMs == 100)
        #expect(error.message.contains("already in preparation"), "\(error.message)")
        refused.append(seq)
      default: Issue.record("registration \(seq): \(reply)")
      }
    }
    #expect(replies[1]?.bodyName == "ack", "the first registration applies")
    #expect(!refused.isEmpty, "8 registrations at once, room for one: none refused")
    // Once its replies are in, the peer's next registration is taken again.
    try pair.peerA.send(Self.registration("after", rows: 200, seq: 20))
    let after = try pair.reply(pair.peerA, "the registration after the refusals")
    #expect(after.replyTo == 20 && after.bodyName == "ack", "\(after)")
  }

  @Test("over the queue behind a large message, a connection's messages are refused; order holds")
  func overQueueBehindLarge() throws {
    let pair = try Pair { $0.queuedBehindPreparation = 4 }
    try pair.peerA.send(Self.registration("main", rows: 200, seq: 1))
    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    input.key.key = .right
    for seq in 2...11 {
      // Down, up, down, up…: a press each two messages.
      input.key.phase = seq % 2 == 0 ? .down : .up
      try pair.peerA.send(Self.envelope(.input(input), seq: UInt64(seq)))
    }
    let replies = try Self.replies(pair, pair.peerA, count: 11)
    #expect(replies[1]?.bodyName == "ack", "the registration applies")
    let served = (2...11).filter { replies[UInt64($0)]?.bodyName == "ack" }
    let refused = (2...11).filter {
      if case .error(let error) = replies[UInt64($0)]?.body { return error.code == .rateLimited }
      return false
    }
    #expect(served == Array(2...5), "the four queued inputs are served: \(served)")
    #expect(refused == Array(6...11), "the rest are refused: \(refused)")
    // The two presses served moved focus in order after the registration: r0c0 → r0c2.
    if case .ack(let last) = replies[5]?.body { #expect(last.focused == "r0c2") }
  }

  @Test("a key revoked while its registrations are prepared: none applies after the revoke")
  func revokedDuringPreparation() throws {
    let directory = try TemporaryDirectory()
    let context = try Context()
    let brokerKeys = try CurveKeyPair.generate()
    let screenKeys = try CurveKeyPair.generate()
    let allowList = directory.path + "/allow-list.json"
    let store = try AllowListStore(path: allowList)
    let entry = AllowList.Entry(
      publicKey: screenKeys.publicKey, name: "tv", role: .screen, added: 0)
    try store.modify { $0.allow(entry) }
    let control = "ipc://\(directory.path)/control"
    var configuration = BrokerConfiguration(
      controlEndpoints: [control], stateEndpoints: ["ipc://\(directory.path)/state"])
    configuration.security = BrokerSecurity(
      keyPair: brokerKeys, allowListPath: allowList,
      pairingEndpoints: ["ipc://\(directory.path)/pairing"])
    configuration.peerByteRate = 1e9
    configuration.peerByteBurst = 1e9
    // Whole large messages over ipc (inproc ignores the limit): this test is about preparation;
    // messages in parts have their own suite.
    configuration.maxMessageSize = 16 << 20
    let broker = try BrokerThread(
      configuration: configuration, context: context, logger: Logger(label: "test"))
    defer { broker.stop() }
    let dealer = try Socket(context, .dealer)
    defer { dealer.close() }
    try dealer.setCurveClient(serverKey: brokerKeys.publicKey, keyPair: screenKeys)
    try dealer.connect(control)

    // A handshake and one small request first, so the pipeline below is all in preparation.
    try dealer.send(Self.envelope(.hello(.with { $0.role = .screen }), seq: 100))
    let welcome = try #require(try SocketWait.message(on: dealer, within: 10), "no Welcome")
    #expect(try Tenfoot_V1_Envelope.decode(welcome[0]).bodyName == "welcome")
    // Tens of milliseconds of preparation each: the revoke lands while most wait.
    for seq in 1...8 {
      try dealer.send(Self.registration("big-\(seq)", rows: 200, seq: UInt64(seq)))
    }
    try store.modify { $0.revoke(entry.id) }

    // Replies by seq: a message the loop reads after the revoke is refused at once, before
    // the replies to those still in preparation (the client matches replies by seq).
    var bySeq: [UInt64: String] = [:]
    for index in 1...8 {
      let frame = try #require(
        try SocketWait.message(on: dealer, within: 10), "reply \(index) of 8 missing")
      let reply = try Tenfoot_V1_Envelope.decode(frame[0])
      if case .error(let error) = reply.body {
        #expect(error.code == .notPaired, "\(error)")
        bySeq[reply.replyTo] = "refused"
      } else {
        bySeq[reply.replyTo] = reply.bodyName
      }
    }
    let bodies = (1...8).map { bySeq[UInt64($0)] ?? "none" }
    let firstRefused = try #require(
      bodies.firstIndex(of: "refused"), "8 registrations, none refused after the revoke: \(bodies)")
    #expect(
      bodies[firstRefused...].allSatisfy { $0 == "refused" },
      "a registration was applied after an earlier one was refused as revoked: \(bodies)")
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
