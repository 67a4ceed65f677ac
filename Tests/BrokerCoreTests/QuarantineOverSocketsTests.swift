import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TenFootSecurity
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

/// A CURVE key that keeps flooding past its byte budget, against a broker thread with real
/// sockets: its connection is cut, ZAP refuses its reconnections for the quarantine (one log
/// line), another key is served all along, and once the quarantine is over (on a clock the test
/// moves) the key is welcome again. The rule itself: `PeerQuarantineTests`.
@Suite("Quarantine of a flooding key over real sockets", .serialized)
struct QuarantineOverSocketsTests {
  /// A CURVE broker with small budgets on `transport`, a flooding key and another key.
  final class Stack {
    let directory: TemporaryDirectory
    let context: Context
    let time = ManualClock()
    let brokerKeys: CurveKeyPair
    let flooderKeys: CurveKeyPair
    let otherKeys: CurveKeyPair
    let broker: BrokerThread
    let logs: RecordingLogHandler.Box
    var seq: UInt64 = 0

    init(tcp: Bool) throws {
      directory = try TemporaryDirectory()
      context = try Context()
      let (flooder, other) = (try CurveKeyPair.generate(), try CurveKeyPair.generate())
      (brokerKeys, flooderKeys, otherKeys) = (try CurveKeyPair.generate(), flooder, other)
      let allowList = directory.path + "/allow-list.json"
      try AllowListStore(path: allowList).modify {
        $0.allow(.init(publicKey: flooder.publicKey, name: "flood", role: .screen, added: 0))
        $0.allow(.init(publicKey: other.publicKey, name: "other", role: .remote, added: 0))
      }
      var configuration = BrokerConfiguration(
        controlEndpoints: [tcp ? "tcp://127.0.0.1:*" : "ipc://\(directory.path)/control"],
        stateEndpoints: ["ipc://\(directory.path)/state"])
      configuration.security = BrokerSecurity(
        keyPair: brokerKeys, allowListPath: allowList,
        pairingEndpoints: ["ipc://\(directory.path)/pairing"])
      configuration.clock = time.clock
      // 4 KiB at once, 1 KiB a second; quarantined past 8 KiB over budget, for 60 s.
      configuration.peerByteRate = 1024
      configuration.peerByteBurst = 4096
      configuration.quarantine = .init(margin: 8192, window: .seconds(10), duration: .seconds(60))
      let (logger, logs) = RecordingLogHandler.logger()
      self.logs = logs
      broker = try BrokerThread(configuration: configuration, context: context, logger: logger)
    }

    deinit { broker.stop() }

    /// A DEALER of `keys` connected to the broker's control endpoint, reconnecting every 50 ms.
    func dealer(_ keys: CurveKeyPair) throws -> Socket {
      let socket = try Socket(context, .dealer)
      try socket.setCurveClient(serverKey: brokerKeys.publicKey, keyPair: keys)
      try socket.setReconnectInterval(milliseconds: 50)
      return socket
    }

    /// Sends a Hello from `socket` and returns the body of its reply (other replies skipped).
    func hello(on socket: Socket) throws -> String {
      seq += 1
      try socket.send(
        Tenfoot_V1_Envelope(sender: "t", seq: seq, sentAtNanoseconds: 1, body: .hello(.init()))
          .encoded())
      while true {
        let frames = try #require(
          try SocketWait.message(on: socket, within: 10), "no reply to Hello \(seq) in 10 s")
        let reply = try Tenfoot_V1_Envelope.decode(frames[0])
        if reply.replyTo == seq { return reply.bodyName }
      }
    }

    /// Connects a new DEALER of the flooder's key and waits for its handshake to be refused at
    /// ZAP or (`admitted`) to succeed and its Hello to be welcomed.
    func attempt(admitted: Bool, _ what: String) throws {
      let socket = try dealer(flooderKeys)
      let monitor = try SocketMonitor(
        context: context, watching: socket, name: "quarantine-attempt",
        events: SocketEvent.handshakeFailedAuth | SocketEvent.handshakeSucceeded)
      defer {
        try? socket.stopMonitor()
        monitor.socket.close()
        socket.close()
      }
      try socket.connect(broker.controlEndpoints[0])
      let deadline = ContinuousClock.now + .seconds(10)
      var outcome: Int32?
      repeat {
        outcome = try monitor.next()?.event
      } while try outcome == nil && monitor.socket.awaitInput(until: deadline)
      let expected = admitted ? SocketEvent.handshakeSucceeded : SocketEvent.handshakeFailedAuth
      #expect(outcome == expected, "\(what): handshake event \(String(describing: outcome))")
      if admitted { #expect(try hello(on: socket) == "welcome", "\(what): served") }
    }

    /// The log lines with `message` so far.
    func logged(_ message: String) -> [RecordingLogHandler.Entry] {
      logs.all.filter { $0.message == message }
    }
  }

  static let quarantined =
    "peer quarantined: it kept sending over its budget; its connections are cut and refused"

  @Test(
    "a flooding key is cut and refused for its quarantine; the other key is served",
    arguments: [
      true, false,
    ])
  func floodingKeyIsQuarantined(tcp: Bool) throws {
    let stack = try Stack(tcp: tcp)
    let endpoint = stack.broker.controlEndpoints[0]
    let flooder = try stack.dealer(stack.flooderKeys)
    let monitor = try SocketMonitor(
      context: stack.context, watching: flooder, name: "quarantine",
      events: SocketEvent.disconnected | SocketEvent.handshakeFailedAuth
        | SocketEvent.handshakeSucceeded)
    defer {
      try? flooder.stopMonitor()
      monitor.socket.close()
      flooder.close()
    }
    try flooder.connect(endpoint)
    let other = try stack.dealer(stack.otherKeys)
    defer { other.close() }
    try other.connect(endpoint)
    #expect(try stack.hello(on: flooder) == "welcome", "the flooder is welcome at first")
    #expect(stack.logged(Self.quarantined).isEmpty)

    // 24 KiB in 1 KiB messages: 4 KiB within budget, then more than 8 KiB over it.
    for _ in 0..<24 { try flooder.send([UInt8](repeating: 0xEE, count: 1024)) }
    try SocketWait.event(SocketEvent.disconnected, on: monitor, within: 10, "the cut")
    // Its reconnection is refused at ZAP (status 400), and so is a new connection of its key,
    // while the other key is served. (libzmq may stop reconnecting after a refusal, so each
    // later attempt is a new socket.)
    try SocketWait.event(
      SocketEvent.handshakeFailedAuth, on: monitor, within: 10, "a refused reconnection")
    #expect(try stack.hello(on: other) == "welcome")
    try stack.attempt(admitted: false, "a new connection during the quarantine")
    let lines = stack.logged(Self.quarantined)
    #expect(lines.count == 1, "one line at the start: \(lines.map(\.metadata))")
    #expect(lines.first?.level == .warning)
    let id = AllowList.id(of: stack.flooderKeys.publicKey)
    #expect(
      lines.first?.metadata.contains("peer.id=\(id)") == true, "\(lines.first?.metadata ?? "")")
    #expect(stack.logged("peer refused").isEmpty, "no line per refused connection")

    // Just short of its end the key is still refused; at its end it is welcome again.
    stack.time.advance(by: .seconds(59))
    try stack.attempt(admitted: false, "a new connection at 59 s")
    stack.time.advance(by: .seconds(1))
    try stack.attempt(admitted: true, "a new connection at 60 s")
    #expect(stack.logged("peer quarantine over: its key is welcome again").count == 1)
    #expect(try stack.hello(on: other) == "welcome")
  }

  @Test("a peer without a key (no CURVE) far over its budget is throttled, never cut")
  func noKeyNoQuarantine() throws {
    let directory = try TemporaryDirectory()
    let context = try Context()
    var configuration = BrokerConfiguration(
      controlEndpoints: ["ipc://\(directory.path)/control"],
      stateEndpoints: ["ipc://\(directory.path)/state"])
    let time = ManualClock()
    configuration.clock = time.clock
    configuration.peerByteRate = 1024
    configuration.peerByteBurst = 4096
    configuration.quarantine = .init(margin: 8192, window: .seconds(10), duration: .seconds(60))
    let (logger, logs) = RecordingLogHandler.logger()
    let broker = try BrokerThread(configuration: configuration, context: context, logger: logger)
    defer { broker.stop() }
    let dealer = try Socket(context, .dealer)
    defer { dealer.close() }
    let monitor = try SocketMonitor(
      context: context, watching: dealer, name: "no-key", events: SocketEvent.disconnected)
    defer {
      try? dealer.stopMonitor()
      monitor.socket.close()
    }
    try dealer.connect(broker.controlEndpoints[0])
    // On the stopped clock, 5 of these are within budget and 1,001 over it: the first and the
    // 1,001st refused are answered RATE_LIMITED, so the second answer comes once all are read.
    for _ in 0..<1006 { try dealer.send([UInt8](repeating: 0xEE, count: 1024)) }
    var limited = 0
    while limited < 2 {
      let frames = try #require(
        try SocketWait.message(on: dealer, within: 10), "\(limited) RATE_LIMITED of 2 in 10 s")
      let reply = try Tenfoot_V1_Envelope.decode(frames[0])
      if case .error(let error) = reply.body, error.code == .rateLimited { limited += 1 }
    }
    // Once its budget is back, the same connection is served: had it been cut, its monitor
    // would have seen the disconnection before this reply.
    time.advance(by: .seconds(60))
    try dealer.send(
      Tenfoot_V1_Envelope(sender: "t", seq: 99, sentAtNanoseconds: 1, body: .hello(.init()))
        .encoded())
    let welcome = try #require(
      try SocketWait.message(on: dealer, within: 10), "no reply to the Hello in 10 s")
    #expect(try Tenfoot_V1_Envelope.decode(welcome[0]).bodyName == "welcome")
    #expect(try monitor.next() == nil, "no disconnection")
    #expect(logs.all.filter { $0.message == Self.quarantined }.isEmpty)
  }
}
