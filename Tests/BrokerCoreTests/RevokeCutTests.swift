import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TenFootSecurity
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

/// The state socket's cut on revoke, in one process over ipc (the e2e tests cover TCP): the
/// listener is unbound and bound again on the same path, which only works if the broker waits
/// for libzmq to close (and unlink) the old one first.
@Suite("Revoke cuts the state socket (in process, ipc)")
struct RevokeCutTests {
  /// A CURVE subscriber to everything, with a monitor on its connection's events.
  final class Subscriber {
    let socket: Socket
    let monitor: SocketMonitor

    init(_ context: Context, keys: CurveKeyPair, brokerKey: String, endpoint: String) throws {
      socket = try Socket(context, .subscriber)
      try socket.setCurveClient(serverKey: brokerKey, keyPair: keys)
      try socket.setReconnectInterval(milliseconds: 100, maxMilliseconds: 250)
      monitor = try SocketMonitor(
        context: context, watching: socket, name: "revoke-cut-\(UUID().uuidString)",
        events: SocketEvent.disconnected | SocketEvent.handshakeSucceeded
          | SocketEvent.handshakeFailedAuth)
      try socket.subscribe("")
      try socket.connect(endpoint)
    }

    deinit {
      try? socket.stopMonitor()
      socket.close()
    }
  }

  @Test("the revoked subscriber is dropped and refused; an honest one is back with new state")
  func cutOverIPC() throws {
    let fixture = try SpyBroker()
    defer { fixture.broker.stop() }
    let watcher = try fixture.subscriber(fixture.spyKeys)
    let screen = try fixture.subscriber(fixture.screenKeys)
    #expect(try SocketWait.message(on: watcher.socket, within: 5) != nil)
    #expect(try SocketWait.message(on: screen.socket, within: 5) != nil)
    try SocketWait.event(
      SocketEvent.handshakeSucceeded, on: screen.monitor, within: 5, "the first handshake")

    _ = try fixture.operatorStore.modify { $0.revoke(fixture.spy.id) }
    try SocketWait.event(
      SocketEvent.disconnected, on: watcher.monitor, within: 5, "the revoked peer cut off")
    try SocketWait.event(
      SocketEvent.handshakeFailedAuth, on: watcher.monitor, within: 5, "ZAP refusing it")
    while try watcher.socket.receiveMultipart(dontWait: true) != nil {}

    try SocketWait.event(
      SocketEvent.handshakeSucceeded, on: screen.monitor, within: 5,
      "the honest subscriber back on the same ipc path")
    while try screen.socket.receiveMultipart(dontWait: true) != nil {}
    #expect(
      try SocketWait.message(on: screen.socket, within: 5) != nil,
      "the honest subscriber gets the next heartbeat")
    #expect(try SocketWait.message(on: watcher.socket, within: 0.5) == nil)
  }

  /// The allow-list file as the broker sees it, where an operator's revoke lands just before
  /// each of the broker's own writes (as `remotes revoke` racing a pairing or a screen's claim
  /// would), and with no watcher, so only the broker's own write can notice it.
  final class RacingStore: AllowListSource {
    let inner: AllowListStore
    let operatorStore: AllowListStore
    let revoke: String
    var path: String { inner.path }
    var list: AllowList { inner.list }
    var watchedFile: String? { nil }

    init(path: String, revoke: String) throws {
      inner = try AllowListStore(path: path)
      operatorStore = try AllowListStore(path: path)
      self.revoke = revoke
    }

    func reloadIfChanged() throws(StoreError) -> Bool { try inner.reloadIfChanged() }

    func startCheck(answered: @escaping @Sendable (AllowListCheck) -> Void) -> Bool {
      inner.startCheck(answered: answered)
    }

    func finishCheck(_ check: AllowListCheck) throws(StoreError) -> Bool {
      try inner.finishCheck(check)
    }

    func modify<R>(_ change: (inout AllowList) -> R) throws(StoreError) -> R {
      try operatorStore.modify { $0.revoke(revoke) }
      return try inner.modify(change)
    }

    func startWrite(
      _ change: @escaping @Sendable (inout AllowList) -> Void,
      answered: @escaping @Sendable (Result<AllowListWrite, StoreError>) -> Void
    ) -> Result<Void, StoreError>? {
      do {
        _ = try operatorStore.modify { $0.revoke(revoke) }
      } catch {
        return .failure(error)
      }
      return inner.startWrite(change, answered: answered)
    }

    func finishWrite(_ answer: Result<AllowListWrite, StoreError>) throws(StoreError) {
      try inner.finishWrite(answer)
    }
  }

  @Test("a revoke written just before the broker's own allow-list write still cuts the peer")
  func revokeRacingWrite() throws {
    let fixture = try SpyBroker { try RacingStore(path: $0, revoke: $1.id) }
    defer { fixture.broker.stop() }
    let watcher = try fixture.subscriber(fixture.spyKeys)
    #expect(try SocketWait.message(on: watcher.socket, within: 5) != nil, "the spy subscribed")

    // The screen key's first registration of "main" makes the broker write the allow-list
    // (the claim); the operator's revoke of the spy lands just before that write.
    let dealer = try fixture.screenDealer()
    defer { dealer.close() }
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "main"
    register.layout = Tenfoot_V1_Layout(
      Layout(canvas: .tv, items: [Item(id: "a", frame: Rect(x: 0, y: 0, width: 10, height: 10))]))
    try dealer.send(
      Tenfoot_V1_Envelope(
        sender: "tv", seq: 1, sentAtNanoseconds: 0, body: .registerScreen(register)
      )
      .encoded())
    let reply = try #require(try SocketWait.message(on: dealer, within: 5), "no reply")
    guard case .ack = try Tenfoot_V1_Envelope.decode(reply[0]).body else {
      Issue.record("the registration was not acknowledged")
      return
    }
    try SocketWait.event(
      SocketEvent.disconnected, on: watcher.monitor, within: 5, "the revoked spy cut off")
  }
}
