import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TenFootSecurity
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

/// Flood control counts a CURVE peer's messages against its key, not its connection: a key
/// that opens more connections gets no more budget (issue 25: "budgets per peer").
@Suite("Budgets per key (CURVE, in process)")
struct KeyBudgetTests {
  @Test("two connections of one key share one budget; another key keeps its own")
  func connectionsShareTheirKeysBudget() throws {
    let directory = try TemporaryDirectory()
    let context = try Context()
    let brokerKeys = try CurveKeyPair.generate()
    let sharedKeys = try CurveKeyPair.generate()
    let otherKeys = try CurveKeyPair.generate()
    let allowList = directory.path + "/allow-list.json"
    let store = try AllowListStore(path: allowList)
    try store.modify {
      $0.allow(.init(publicKey: sharedKeys.publicKey, name: "many", role: .remote, added: 0))
      $0.allow(.init(publicKey: otherKeys.publicKey, name: "one", role: .remote, added: 0))
    }
    let time = ManualClock()
    let control = "ipc://\(directory.path)/control"
    var configuration = BrokerConfiguration(
      controlEndpoints: [control], stateEndpoints: ["ipc://\(directory.path)/state"])
    configuration.security = BrokerSecurity(
      keyPair: brokerKeys, allowListPath: allowList,
      pairingEndpoints: ["ipc://\(directory.path)/pairing"])
    // The clock stands still: no budget comes back while the test runs.
    configuration.clock = time.clock
    configuration.peerRate = 1
    configuration.peerBurst = 3
    let broker = try BrokerThread(
      configuration: configuration, context: context, logger: Logger(label: "test"))
    defer { broker.stop() }

    func dealer(_ keys: CurveKeyPair) throws -> Socket {
      let socket = try Socket(context, .dealer)
      try socket.setCurveClient(serverKey: brokerKeys.publicKey, keyPair: keys)
      try socket.connect(control)
      return socket
    }
    var seq: UInt64 = 0
    func hello(on socket: Socket) throws -> Tenfoot_V1_Envelope {
      seq += 1
      let envelope = Tenfoot_V1_Envelope(
        sender: "test", seq: seq, sentAtNanoseconds: 1, body: .hello(.init()))
      try socket.send(envelope.encoded())
      let reply = try #require(
        try SocketWait.message(on: socket, within: 5), "the broker did not reply in 5 s")
      return try Tenfoot_V1_Envelope.decode(reply[0])
    }
    let first = try dealer(sharedKeys)
    let second = try dealer(sharedKeys)
    let other = try dealer(otherKeys)
    defer { [first, second, other].forEach { $0.close() } }

    #expect(try hello(on: first).bodyName == "welcome")
    #expect(try hello(on: first).bodyName == "welcome")
    #expect(try hello(on: second).bodyName == "welcome")
    // The key's burst of 3 is spent, across its two connections.
    let refused = try hello(on: second)
    guard case .error(let error) = refused.body else {
      Issue.record("a fourth message of the key was served: \(refused.bodyName)")
      return
    }
    #expect(error.code == .rateLimited)
    // Another key's budget is its own.
    #expect(try hello(on: other).bodyName == "welcome")
    time.advance(by: .seconds(1))
    #expect(try hello(on: second).bodyName == "welcome")
  }
}
