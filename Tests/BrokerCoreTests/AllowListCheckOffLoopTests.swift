import Foundation
import Logging
import TenFootProtocol
import TenFootSecurity
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

/// The allow-list's check for changes reads off the broker's loop: while a check's read is
/// held (a slow disk, a zone's store that stalls), the loop goes on answering requests and
/// publishing heartbeats, and the revoke the check read is applied, cutting its peer, once
/// the read comes back.
@Suite("Allow-list checks off the broker's loop (in process, ipc)")
struct AllowListCheckOffLoopTests {
  /// Holds the checks that read a change, on the checking thread, until the test opens it.
  final class CheckGate: @unchecked Sendable {
    // @unchecked Sendable is sound: every stored property is only touched under `condition`.
    private let condition = NSCondition()
    private var closed = false
    private var held = 0

    /// From now on, a check that read a change waits (at most 30 s) until `open`.
    func close() { condition.withLock { closed = true } }

    func open() {
      condition.withLock {
        closed = false
        condition.broadcast()
      }
    }

    /// On the checking thread: waits while the gate is closed.
    func pass() {
      let deadline = Date(timeIntervalSinceNow: 30)
      condition.withLock {
        guard closed else { return }
        held += 1
        condition.broadcast()
        while closed, condition.wait(until: deadline) {}
        held -= 1
      }
    }

    /// Whether a check is held within `seconds`.
    func waitUntilHeld(within seconds: Double) -> Bool {
      let deadline = Date(timeIntervalSinceNow: seconds)
      return condition.withLock {
        while held == 0, condition.wait(until: deadline) {}
        return held > 0
      }
    }
  }

  /// The allow-list file with no file to watch, as a zone's store: only the broker's checks
  /// (off the loop) see a change, and those that read one pass through `gate`.
  final class HeldCheckStore: AllowListSource {
    let inner: AllowListStore
    let gate: CheckGate
    var path: String { inner.path }
    var list: AllowList { inner.list }
    var watchedFile: String? { nil }

    init(path: String, gate: CheckGate) throws {
      inner = try AllowListStore(path: path)
      self.gate = gate
    }

    func reloadIfChanged() throws(StoreError) -> Bool { try inner.reloadIfChanged() }

    func modify<R>(_ change: (inout AllowList) -> R) throws(StoreError) -> R {
      try inner.modify(change)
    }

    func startWrite(
      _ change: @escaping @Sendable (inout AllowList) -> Void,
      answered: @escaping @Sendable (Result<AllowListWrite, StoreError>) -> Void
    ) -> Result<Void, StoreError>? {
      inner.startWrite(change, answered: answered)
    }

    func finishWrite(_ answer: Result<AllowListWrite, StoreError>) throws(StoreError) {
      try inner.finishWrite(answer)
    }

    func startCheck(answered: @escaping @Sendable (AllowListCheck) -> Void) -> Bool {
      let gate = gate
      return inner.startCheck { check in
        if case .changed = check { gate.pass() }
        answered(check)
      }
    }

    func finishCheck(_ check: AllowListCheck) throws(StoreError) -> Bool {
      try inner.finishCheck(check)
    }
  }

  @Test("a held check's read stops neither requests nor heartbeats; its revoke cuts once read")
  func loopServesWhileCheckIsHeld() throws {
    let gate = CheckGate()
    defer { gate.open() }
    let fixture = try SpyBroker { path, _ in try HeldCheckStore(path: path, gate: gate) }
    defer { fixture.broker.stop() }
    let watcher = try fixture.subscriber(fixture.spyKeys)
    #expect(try SocketWait.message(on: watcher.socket, within: 5) != nil, "the spy subscribed")
    let dealer = try fixture.screenDealer()
    defer { dealer.close() }
    #expect(try hello(dealer, seq: 1) == "welcome")

    gate.close()
    _ = try fixture.operatorStore.modify { $0.revoke(fixture.spy.id) }
    #expect(gate.waitUntilHeld(within: 10), "no check read the revoke within 10 s")

    // The check's read is held: the loop still answers and publishes, and the spy, whose
    // revoke is not read back yet, still gets state.
    #expect(try hello(dealer, seq: 2) == "welcome", "a request waited for the held check")
    while try watcher.socket.receiveMultipart(dontWait: true) != nil {}
    #expect(
      try SocketWait.message(on: watcher.socket, within: 5) != nil,
      "no heartbeat while the check was held")

    gate.open()
    try SocketWait.event(
      SocketEvent.disconnected, on: watcher.monitor, within: 5, "the revoked spy cut off")
    try SocketWait.event(
      SocketEvent.handshakeFailedAuth, on: watcher.monitor, within: 5, "ZAP refusing it")
  }

  /// Sends a `Hello` on `dealer` and returns the reply's body name (nil: none within 5 s).
  private func hello(_ dealer: Socket, seq: UInt64) throws -> String? {
    try dealer.send(
      Tenfoot_V1_Envelope(sender: "tv", seq: seq, sentAtNanoseconds: 0, body: .hello(.init()))
        .encoded())
    guard let reply = try SocketWait.message(on: dealer, within: 5) else { return nil }
    return try Tenfoot_V1_Envelope.decode(reply[0]).bodyName
  }
}
