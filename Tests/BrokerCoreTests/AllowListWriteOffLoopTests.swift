import FocusEngine
import Foundation
import Logging
import TenFootClient
import TenFootProtocol
import TenFootSecurity
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

/// The allow-list file's writes (a pairing's new key, a screen's first claim) run off the
/// broker's loop: while a write is held on its thread (a slow disk), the loop goes on answering
/// requests and presses, admitting connections (ZAP) and publishing heartbeats; the pairing
/// and the registration waiting on the write are answered only once it is durable, a revoke
/// written between the write and its answer still cuts its peer, and a write that fails answers
/// the pairing `STORE_UNAVAILABLE` while the broker keeps serving.
@Suite("Allow-list writes off the broker's loop (in process, ipc)")
struct AllowListWriteOffLoopTests {
  typealias Gate = AllowListCheckOffLoopTests.CheckGate

  /// The allow-list file, whose writes pass through `gate` on the writing thread: under the
  /// file's lock before the change (`hold: .underLock`), or after the save, before the answer
  /// goes back to the loop (`.beforeAnswer`). `watched`: whether the broker watches the file.
  final class GatedWriteStore: AllowListSource {
    enum Hold { case underLock, beforeAnswer }
    let inner: AllowListStore
    let gate: Gate
    let hold: Hold
    let watched: Bool
    var path: String { inner.path }
    var list: AllowList { inner.list }
    var watchedFile: String? { watched ? inner.watchedFile : nil }

    init(path: String, gate: Gate, hold: Hold, watched: Bool) throws {
      inner = try AllowListStore(path: path)
      self.gate = gate
      self.hold = hold
      self.watched = watched
    }

    func reloadIfChanged() throws(StoreError) -> Bool { try inner.reloadIfChanged() }

    func modify<R>(_ change: (inout AllowList) -> R) throws(StoreError) -> R {
      try inner.modify(change)
    }

    func startCheck(answered: @escaping @Sendable (AllowListCheck) -> Void) -> Bool {
      inner.startCheck(answered: answered)
    }

    func finishCheck(_ check: AllowListCheck) throws(StoreError) -> Bool {
      try inner.finishCheck(check)
    }

    func startWrite(
      _ change: @escaping @Sendable (inout AllowList) -> Void,
      answered: @escaping @Sendable (Result<AllowListWrite, StoreError>) -> Void
    ) -> Result<Void, StoreError>? {
      let gate = gate
      switch hold {
      case .underLock:
        return inner.startWrite(
          { list in
            gate.pass()
            change(&list)
          }, answered: answered)
      case .beforeAnswer:
        return inner.startWrite(change) { answer in
          gate.pass()
          answered(answer)
        }
      }
    }

    func finishWrite(_ answer: Result<AllowListWrite, StoreError>) throws(StoreError) {
      try inner.finishWrite(answer)
    }
  }

  /// A peer of the broker on its own dealer: numbered requests, replies read with a bound.
  final class Peer {
    let socket: Socket
    var seq: UInt64 = 0

    init(_ socket: Socket) { self.socket = socket }
    deinit { socket.close() }

    /// Sends `body`; returns its seq.
    @discardableResult
    func send(_ body: Tenfoot_V1_Envelope.OneOf_Body) throws -> UInt64 {
      seq += 1
      try socket.send(
        Tenfoot_V1_Envelope(sender: "test", seq: seq, sentAtNanoseconds: 1, body: body).encoded())
      return seq
    }

    /// The next reply within `seconds`: the seq it answers and its body.
    func reply(within seconds: Double = 5) throws
      -> (replyTo: UInt64, body: Tenfoot_V1_Envelope.OneOf_Body)?
    {
      guard let frames = try SocketWait.message(on: socket, within: seconds) else { return nil }
      let envelope = try Tenfoot_V1_Envelope.decode(frames[0])
      return try (envelope.replyTo, #require(envelope.body))
    }

    /// Sends `body` and returns the name of its reply's body (nil: none within 5 s).
    func ask(_ body: Tenfoot_V1_Envelope.OneOf_Body) throws -> String? {
      let sent = try send(body)
      guard let frames = try SocketWait.message(on: socket, within: 5) else { return nil }
      let reply = try Tenfoot_V1_Envelope.decode(frames[0])
      return reply.replyTo == sent ? reply.bodyName : "a reply to \(reply.replyTo)"
    }
  }

  /// A registration of screen `id` with one item.
  static func register(_ id: String) -> Tenfoot_V1_Envelope.OneOf_Body {
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = id
    register.layout = Tenfoot_V1_Layout(
      Layout(canvas: .tv, items: [Item(id: "a", frame: Rect(x: 0, y: 0, width: 10, height: 10))]))
    return .registerScreen(register)
  }

  /// A press of Right on screen `id`.
  static func press(_ id: String) -> Tenfoot_V1_Envelope.OneOf_Body {
    var input = Tenfoot_V1_Input()
    input.screenID = id
    input.key.key = .right
    input.key.phase = .down
    return .input(input)
  }

  /// A CURVE control connection to `fixture`'s broker with `keys`.
  static func control(_ fixture: SpyBroker, _ keys: CurveKeyPair) throws -> Peer {
    let dealer = try Socket(fixture.context, .dealer)
    try dealer.setCurveClient(serverKey: fixture.brokerKeys.publicKey, keyPair: keys)
    try dealer.connect(fixture.control)
    return Peer(dealer)
  }

  /// Whether a broker heartbeat arrives on `subscriber` within 5 s, after what was queued.
  static func heartbeatArrives(_ subscriber: RevokeCutTests.Subscriber) throws -> Bool {
    while try subscriber.socket.receiveMultipart(dontWait: true) != nil {}
    let deadline = Date(timeIntervalSinceNow: 5)
    while let frames = try SocketWait.message(
      on: subscriber.socket, within: max(0, deadline.timeIntervalSinceNow))
    {
      if String(decoding: frames[0], as: UTF8.self) == WireProtocol.heartbeatTopic { return true }
    }
    return false
  }

  @Test("a held claim stops no request, press, ZAP or heartbeat; the registration waits for it")
  func loopServesWhileClaimIsHeld() throws {
    let gate = Gate()
    defer { gate.open() }
    let fixture = try SpyBroker { path, _ in
      try GatedWriteStore(path: path, gate: gate, hold: .underLock, watched: true)
    }
    defer { fixture.broker.stop() }
    let subscriber = try fixture.subscriber(fixture.screenKeys)
    let screen = try Self.control(fixture, fixture.screenKeys)
    #expect(try screen.ask(Self.register("main")) == "ack", "the first claim, not held")
    let rivalKeys = try CurveKeyPair.generate()
    _ = try fixture.operatorStore.modify {
      $0.allow(
        AllowList.Entry(publicKey: rivalKeys.publicKey, name: "rival", role: .screen, added: 0))
    }
    let rival = try Self.control(fixture, rivalKeys)
    #expect(try rival.ask(.hello(.init())) == "welcome", "the rival screen key let in")

    gate.close()
    let registered = try screen.send(Self.register("den"))
    #expect(gate.waitUntilHeld(within: 10), "the claim of den was never written")
    // The write holds the file's lock on its thread: the loop serves a remote's press on a
    // connection ZAP admits now, another connection's Hello, and heartbeats.
    let spy = try Self.control(fixture, fixture.spyKeys)
    #expect(try spy.ask(Self.press("main")) == "ack", "a press waited for the held write")
    let other = try Self.control(fixture, fixture.screenKeys)
    #expect(try other.ask(.hello(.init())) == "welcome", "a Hello waited for the held write")
    #expect(try Self.heartbeatArrives(subscriber), "no heartbeat while the write was held")
    // The claim in flight owns den: another screen key's claim of it is refused at once.
    #expect(try rival.ask(Self.register("den")) == "error", "a second claim of den while held")
    #expect(try screen.reply(within: 0.2) == nil, "registered before the claim was durable")

    gate.open()
    let reply = try #require(try screen.reply(), "the registration never answered")
    #expect(reply.replyTo == registered)
    guard case .ack = reply.body else {
      Issue.record("the registration was refused: \(reply.body)")
      return
    }
    // Answered once durable: the file holds the claim, and the screen's next request finds it.
    let owners = try AllowList.load(fixture.allowList).screenOwners
    #expect(owners["den"] == AllowList.keyHex(of: fixture.screenKeys.publicKey))
    var beat = Tenfoot_V1_Heartbeat()
    beat.screenID = "den"
    #expect(try screen.ask(.heartbeat(beat)) == "ack", "the claimed screen's heartbeat refused")
  }

  @Test("a held pairing write leaves the loop serving; the remote is answered once it is durable")
  func pairingAnsweredOnceDurable() throws {
    let gate = Gate()
    defer { gate.open() }
    let fixture = try SpyBroker { path, _ in
      try GatedWriteStore(path: path, gate: gate, hold: .underLock, watched: true)
    }
    defer { fixture.broker.stop() }
    let prompts = try fixture.subscriber(fixture.screenKeys)
    #expect(try SocketWait.message(on: prompts.socket, within: 5) != nil, "the screen subscribed")
    let remote = try CurveKeyPair.generate()
    let pairing = try Self.pairingPeer(fixture)

    gate.close()
    let (proved, brokerTag) = try Self.prove(remote, on: pairing, prompts: prompts, fixture)
    #expect(gate.waitUntilHeld(within: 10), "the new key was never written")
    let spy = try Self.control(fixture, fixture.spyKeys)
    #expect(try spy.ask(.hello(.init())) == "welcome", "a Hello waited for the held write")
    #expect(try Self.heartbeatArrives(prompts), "no heartbeat while the write was held")
    #expect(try pairing.reply(within: 0.2) == nil, "paired before the key was durable")

    gate.open()
    let answer = try #require(try pairing.reply(), "the pairing never answered")
    #expect(answer.replyTo == proved)
    let attempt = try PairingMessages.attempt(from: answer.body, brokerTag: brokerTag)
    #expect(attempt == .paired(id: AllowList.id(of: remote.publicKey)))
    // The remote connects right after its answer: ZAP finds its key.
    let paired = try Self.control(fixture, remote)
    #expect(try paired.ask(.hello(.init())) == "welcome", "the paired remote not let in")
  }

  @Test("a revoke written between the broker's write and its answer still cuts the peer")
  func revokeBetweenWriteAndAnswer() throws {
    let gate = Gate()
    defer { gate.open() }
    // Not watched: only the broker's checks, which compare the file with the write's stamp,
    // can see the revoke.
    let fixture = try SpyBroker { path, _ in
      try GatedWriteStore(path: path, gate: gate, hold: .beforeAnswer, watched: false)
    }
    defer { fixture.broker.stop() }
    let watcher = try fixture.subscriber(fixture.spyKeys)
    #expect(try SocketWait.message(on: watcher.socket, within: 5) != nil, "the spy subscribed")
    let screen = try Self.control(fixture, fixture.screenKeys)

    gate.close()
    let registered = try screen.send(Self.register("main"))
    #expect(gate.waitUntilHeld(within: 10), "the claim was never written")
    // The claim is on disk, its answer held: the operator revokes the spy now.
    _ = try fixture.operatorStore.modify { $0.revoke(fixture.spy.id) }
    gate.open()
    let reply = try #require(try screen.reply(), "the registration never answered")
    #expect(reply.replyTo == registered)
    try SocketWait.event(
      SocketEvent.disconnected, on: watcher.monitor, within: 5, "the revoked spy cut off")
    try SocketWait.event(
      SocketEvent.handshakeFailedAuth, on: watcher.monitor, within: 5, "ZAP refusing it")
  }

  @Test("a write that fails answers the pairing STORE_UNAVAILABLE; the broker keeps serving")
  func failedWriteRefusesThePairing() throws {
    // Once the broker has loaded the file, a directory takes its place: the write's read
    // under the lock fails (EISDIR), as a disk that cannot be read or written would, even for
    // root, and the broker's checks keep the list they loaded.
    let fixture = try SpyBroker { path, _ in
      let store = try AllowListStore(path: path)
      try FileManager.default.moveItem(atPath: path, toPath: path + ".moved")
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      return store
    }
    defer { fixture.broker.stop() }
    let prompts = try fixture.subscriber(fixture.screenKeys)
    #expect(try SocketWait.message(on: prompts.socket, within: 5) != nil, "the screen subscribed")
    let pairing = try Self.pairingPeer(fixture)

    let remote = try CurveKeyPair.generate()
    let (proved, _) = try Self.prove(remote, on: pairing, prompts: prompts, fixture)
    let answer = try #require(try pairing.reply(), "the pairing never answered")
    #expect(answer.replyTo == proved)
    guard case .error(let error) = answer.body else {
      Issue.record("paired although the write failed: \(answer.body)")
      return
    }
    #expect(error.code == .storeUnavailable, "\(error)")
    // A claim whose write fails is acknowledged, as before (logged, not saved); the broker
    // serves on.
    let screen = try Self.control(fixture, fixture.screenKeys)
    #expect(try screen.ask(Self.register("den")) == "ack", "the failed claim's registration")
    #expect(try screen.ask(.hello(.init())) == "welcome", "the broker stopped serving")
  }

  /// A plain connection to `fixture`'s pairing endpoint.
  static func pairingPeer(_ fixture: SpyBroker) throws -> Peer {
    let dealer = try Socket(fixture.context, .dealer)
    try dealer.connect("ipc://\(fixture.directory.path)/pairing")
    return Peer(dealer)
  }

  /// Starts `remote`'s pairing on `pairing` and proves the PIN the broker sealed to the
  /// screen's key (read on `prompts`); returns the proof's seq and the tag the broker's
  /// confirmation must carry.
  static func prove(
    _ remote: CurveKeyPair, on pairing: Peer, prompts: RevokeCutTests.Subscriber,
    _ fixture: SpyBroker
  ) throws -> (seq: UInt64, brokerTag: [UInt8]) {
    let messages = try PairingMessages(publicKey: remote.publicKey, name: "phone")
    let (request, remoteNonce) = messages.roundRequest(next: false)
    try pairing.send(request)
    let answer = try #require(try pairing.reply(), "no challenge")
    let challenge = try PairingMessages.challenge(from: answer.body, remoteNonce: remoteNonce)
    let pin = try #require(try promptedPIN(prompts, fixture.screenKeys), "no PIN prompt")
    let (proof, brokerTag) = try messages.proof(pin: pin, challenge: challenge)
    return (try pairing.send(proof), brokerTag)
  }

  /// The PIN of the next pairing prompt on `prompts` that `screen` can open, within 5 s.
  static func promptedPIN(_ prompts: RevokeCutTests.Subscriber, _ screen: CurveKeyPair) throws
    -> String?
  {
    let deadline = Date(timeIntervalSinceNow: 5)
    while let frames = try SocketWait.message(
      on: prompts.socket, within: max(0, deadline.timeIntervalSinceNow))
    {
      guard frames.count == 2,
        case .pairingPrompt(let prompt) = try Tenfoot_V1_Envelope.decode(frames[1]).body
      else { continue }
      for sealed in prompt.sealed {
        if let pin = SealedPIN.open([UInt8](sealed.box), with: screen) { return pin }
      }
    }
    return nil
  }
}
