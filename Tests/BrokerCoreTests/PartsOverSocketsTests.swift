import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

/// Messages sent in parts against a broker thread over ipc, with real DEALERs: the bounds on
/// what a connection's incomplete message may hold, and the deadline between parts, as a peer
/// on the wire sees them (typed answers, log lines, nothing applied) while another peer is
/// served. The rules themselves: `PartAssemblyTests`; across processes: `MessagePartsTests`.
@Suite("Messages in parts over real sockets")
struct PartsOverSocketsTests {
  /// A broker thread on ipc, recording its log, with two DEALERs (A sends the parts, B is the
  /// other peer) and a SUB that sees its heartbeats (the parts' deadline is checked on them).
  final class Stack {
    let context: Context
    let broker: BrokerThread
    let peerA: Socket
    let peerB: Socket
    let subscriber: Socket
    let logs: RecordingLogHandler.Box

    init(adjust: (inout BrokerConfiguration) -> Void) throws {
      context = try Context()
      let unique = UUID().uuidString.prefix(8)
      var configuration = BrokerConfiguration(
        controlEndpoints: ["ipc:///tmp/tf-pt-\(unique)-c"],
        stateEndpoints: ["ipc:///tmp/tf-pt-\(unique)-s"])
      configuration.epoch = 3
      adjust(&configuration)
      let (logger, logs) = RecordingLogHandler.logger()
      self.logs = logs
      broker = try BrokerThread(configuration: configuration, context: context, logger: logger)
      peerA = try Socket(context, .dealer)
      try peerA.connect(configuration.controlEndpoints[0])
      peerB = try Socket(context, .dealer)
      try peerB.connect(configuration.controlEndpoints[0])
      subscriber = try Socket(context, .subscriber)
      try subscriber.subscribe(WireProtocol.heartbeatTopic)
      try subscriber.connect(configuration.stateEndpoints[0])
    }

    deinit {
      peerA.close()
      peerB.close()
      subscriber.close()
      broker.stop()
    }

    /// The next reply to `socket` within 10 s.
    func reply(_ socket: Socket, _ what: String) throws -> Tenfoot_V1_Envelope {
      let frames = try #require(
        try SocketWait.message(on: socket, within: 10), "no reply to \(what) within 10 s")
      return try Tenfoot_V1_Envelope.decode(frames[0])
    }

    /// Sends a Hello as `seq` from `socket` and returns the screens its Welcome lists; the
    /// next reply must be that Welcome.
    func screens(_ socket: Socket, seq: UInt64) throws -> [String] {
      try socket.send(
        Tenfoot_V1_Envelope(sender: "t", seq: seq, sentAtNanoseconds: 1, body: .hello(.init()))
          .encoded())
      let welcome = try reply(socket, "the Hello \(seq)")
      #expect(welcome.replyTo == seq, "the next reply answers the Hello: \(welcome)")
      guard case .welcome(let body) = welcome.body else {
        Issue.record("expected a Welcome, got \(welcome)")
        return []
      }
      return body.screens
    }

    /// Waits for `count` broker heartbeats published from now on (at most 10 s each): those
    /// already received are skipped.
    func heartbeats(_ count: Int) throws {
      while try subscriber.receiveMultipart(dontWait: true) != nil {}
      var seen = 0
      while seen < count {
        let frames = try #require(
          try SocketWait.message(on: subscriber, within: 10), "no broker heartbeat in 10 s")
        if String(decoding: frames[0], as: UTF8.self) == WireProtocol.heartbeatTopic { seen += 1 }
      }
    }

    /// Whether `socket` has a message waiting now.
    func hasReply(_ socket: Socket) throws -> Bool {
      var poller = Poller()
      poller.add(socket)
      try poller.poll(timeout: .zero)
      return poller.isReadable(0)
    }

    /// The warnings logged with `message` so far.
    func logged(_ message: String) -> [RecordingLogHandler.Entry] {
      logs.all.filter { $0.message == message }
    }
  }

  /// The parts of a registration of `screen` with a grid of `rows` × 100 items (about 65
  /// bytes an item), sent as `seq`: of 32 KiB of the whole each, or with `thirds`, three parts
  /// of which any two and a third's size make more than the whole.
  static func parts(_ screen: String, rows: Int, seq: UInt64, thirds: Bool = false)
    throws -> (parts: [[UInt8]], whole: Int)
  {
    var request = Tenfoot_V1_RegisterScreen()
    request.screenID = screen
    request.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: rows, columns: 100))
    let envelope = Tenfoot_V1_Envelope(
      sender: "a", seq: seq, sentAtNanoseconds: 1, body: .registerScreen(request))
    let whole = envelope.encoded().count
    let partSize = thirds ? whole / 3 + 1 : 32 * 1024
    let parts = try #require(MessageParts.frames(of: envelope, partSize: partSize))
    return (parts, whole)
  }

  /// The error a reply carries, or nil (recorded) when it carries none.
  static func error(_ reply: Tenfoot_V1_Envelope) -> Tenfoot_V1_Error? {
    guard case .error(let error) = reply.body else {
      Issue.record("expected an error, got \(reply)")
      return nil
    }
    return error
  }

  @Test("parts past the bound on one message: PARTS_REFUSED, logged, nothing applied; B served")
  func overTheMessageBound() throws {
    let limit = 256 * 1024
    let stack = try Stack { $0.maxWholeMessageSize = limit }
    let (parts, whole) = try Self.parts("big", rows: 100, seq: 7)
    #expect(whole > limit && parts.count >= 10, "\(whole) bytes in \(parts.count) parts")
    // Part of the message is gathered; the other peer is served meanwhile.
    for part in parts.prefix(4) { try stack.peerA.send(part) }
    #expect(try stack.screens(stack.peerB, seq: 1) == [])
    #expect(try !stack.hasReply(stack.peerA), "a part within the bound is not answered")
    for part in parts.dropFirst(4) { try stack.peerA.send(part) }
    let refused = try stack.reply(stack.peerA, "the part over the bound")
    let error = Self.error(refused)
    #expect(refused.replyTo == 7)
    #expect(error?.code == .partsRefused, "\(String(describing: error))")
    #expect(error?.message.contains("exceeds 256 KiB") == true, "\(error?.message ?? "")")
    // The rest of its parts were dropped unanswered: the next reply answers A's Hello, and
    // nothing of the registration was applied.
    #expect(try stack.screens(stack.peerA, seq: 8) == [])
    #expect(try stack.screens(stack.peerB, seq: 2) == [], "B is served after the refusal")
    let lines = stack.logged("message in parts refused")
    #expect(lines.count == 1, "one log line for the refused message: \(lines.map(\.metadata))")
    #expect(lines.first?.level == .warning)
    #expect(lines.first?.metadata.contains("seq=7") == true, "\(lines.first?.metadata ?? "")")
    // Sent again within the bound (a smaller layout), the same connection registers.
    let (smaller, _) = try Self.parts("big", rows: 20, seq: 9)
    for part in smaller { try stack.peerA.send(part) }
    let ack = try stack.reply(stack.peerA, "the registration within the bound")
    #expect(ack.replyTo == 9 && ack.bodyName == "ack", "\(ack)")
  }

  @Test("parts past all connections' bound: RATE_LIMITED for that peer; the other's applies")
  func overTheBoundInAll() throws {
    let (partsA, wholeA) = try Self.parts("tv-a", rows: 15, seq: 1, thirds: true)
    let (partsB, _) = try Self.parts("tv-b", rows: 15, seq: 1, thirds: true)
    #expect(partsA.count == 3, "\(wholeA) bytes in \(partsA.count) parts")
    // Room for one of the two messages, not both.
    let stack = try Stack { $0.partBytesTotal = wholeA }
    for part in partsA.prefix(2) { try stack.peerA.send(part) }
    #expect(try stack.screens(stack.peerA, seq: 2) == [], "A's two parts are gathered")
    try stack.peerB.send(partsB[0])
    let limited = try stack.reply(stack.peerB, "B's first part")
    let error = Self.error(limited)
    #expect(limited.replyTo == 1 && error?.code == .rateLimited, "\(limited)")
    #expect(error?.retryAfterMs == 100)
    // A's message is untouched by B's refusal: its last part completes it.
    try stack.peerA.send(partsA[2])
    let ack = try stack.reply(stack.peerA, "A's last part")
    #expect(ack.replyTo == 1 && ack.bodyName == "ack", "\(ack)")
    #expect(try stack.screens(stack.peerB, seq: 3) == ["tv-a"], "only A's registration applied")
  }

  @Test("an unfinished message expires on the broker's clock; its bytes go; a late part is dropped")
  func expiresAfterTheDeadline() throws {
    let time = ManualClock()
    let (partsA, wholeA) = try Self.parts("tv-a", rows: 15, seq: 4, thirds: true)
    let (partsB, _) = try Self.parts("tv-b", rows: 15, seq: 1, thirds: true)
    #expect(partsA.count == 3, "\(wholeA) bytes in \(partsA.count) parts")
    // The default deadline (10 s) on a clock the test moves; heartbeats (which check the
    // deadline) every 100 ms of real time. Room in all for one of the two messages.
    let stack = try Stack {
      $0.clock = time.clock
      $0.heartbeatInterval = .milliseconds(100)
      $0.partBytesTotal = wholeA
    }
    #expect(
      BrokerConfiguration(controlEndpoints: [], stateEndpoints: []).partDeadline == .seconds(10))
    for part in partsA.prefix(2) { try stack.peerA.send(part) }
    #expect(try stack.screens(stack.peerA, seq: 5) == [], "A's two parts are gathered")
    // Just short of the deadline, heartbeats on: nothing expires, and A's message still holds
    // its bytes (B's first part does not fit).
    time.advance(by: .milliseconds(9_900))
    try stack.heartbeats(3)
    #expect(try !stack.hasReply(stack.peerA), "expired before the deadline")
    try stack.peerB.send(partsB[0])
    let limited = try stack.reply(stack.peerB, "B's part while A's message holds the bytes")
    #expect(Self.error(limited)?.code == .rateLimited, "\(limited)")
    // At the deadline: A is told, once, with the message's seq, and the warning is logged.
    time.advance(by: .milliseconds(100))
    let expired = try stack.reply(stack.peerA, "the expiry of A's message")
    let error = Self.error(expired)
    #expect(expired.replyTo == 4 && error?.code == .partsRefused, "\(expired)")
    #expect(error?.message.contains("did not come in time") == true, "\(error?.message ?? "")")
    let lines = stack.logged("message in parts refused").filter {
      $0.metadata.contains("did not come in time")
    }
    #expect(lines.count == 1 && lines.first?.metadata.contains("seq=4") == true)
    // Its bytes are released: B's whole message in parts now fits and is applied.
    for part in partsB { try stack.peerB.send(part) }
    let ack = try stack.reply(stack.peerB, "B's registration after the expiry")
    #expect(ack.replyTo == 1 && ack.bodyName == "ack", "\(ack)")
    // A's late last part is dropped unanswered (A was told once) and completes nothing.
    try stack.peerA.send(partsA[2])
    #expect(try stack.screens(stack.peerA, seq: 6) == ["tv-b"], "nothing of A's message applied")
  }
}
