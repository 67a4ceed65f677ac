import BrokerCore
import Foundation
import Logging
import TenFootClient
import TenFootPostgres
import TenFootProtocol
import TenFootSecurity
import TestSupport
import Testing
import ZeroMQ

/// A zone broker's allow-list writes run off its loop: while PostgreSQL holds the write of a
/// pairing's new key (the test holds the zone's row lock that the write's fence waits on), the
/// broker keeps publishing heartbeats and answering control requests; the pairing is answered
/// only once the key is durable, and a write that fails (a takeover bumped the term meanwhile)
/// answers `STORE_UNAVAILABLE` and lets the key in nowhere.
@Suite(
  "Zone allow-list writes off the broker's loop (PostgreSQL)", .enabled(if: TestPostgres.shouldRun),
  .serialized)
struct ZoneAllowListOffLoopTests {
  let logger = Logger(label: "test")

  /// A CURVE zone broker of "hall" under term 1 whose allow-list is the zone's, with one
  /// screen key on it (its PIN prompts are sealed to it); the screen's control connection and
  /// state subscription (heartbeats, pairing prompts), and a remote's pairing connection.
  final class Stack: EnvelopePeer {
    let postgres: TestPostgres
    let context: Context
    let broker: BrokerThread
    let brokerKey: CurveKeyPair
    let screenKey: CurveKeyPair
    let control: Socket
    let state: Socket
    let pairing: Socket
    let directory: TemporaryDirectory
    /// A connection of the test's own, holding row locks in a transaction.
    let locker: PostgresLink
    var seq: UInt64 = 0

    init(logger: Logger) throws {
      let zone = try HallZone(logger: logger)
      postgres = zone.postgres
      let url = zone.url
      let term: Int64 = 1
      brokerKey = try CurveKeyPair.generate()
      screenKey = try CurveKeyPair.generate()
      // The operator allows the screen's key (no term: not fenced).
      let operatorLink = PostgresLink(url: url, logger: logger)
      defer { operatorLink.close() }
      let operatorStore = try PostgresAllowListStore(
        link: operatorLink, zone: "hall", term: nil, logger: logger)
      let screenEntry = AllowList.Entry(
        publicKey: screenKey.publicKey, name: "tv", role: .screen, added: 1)
      try operatorStore.modify { $0.allow(screenEntry) }
      directory = try TemporaryDirectory()
      context = try Context()
      let unique = UUID().uuidString.prefix(8)
      var configuration = BrokerConfiguration(
        controlEndpoints: ["inproc://c-\(unique)"], stateEndpoints: ["inproc://s-\(unique)"])
      configuration.heartbeatInterval = .milliseconds(50)
      var security = BrokerSecurity(
        keyPair: brokerKey, allowListPath: directory.path + "/allow-list.json",
        pairingEndpoints: ["inproc://p-\(unique)"])
      security.allowList = {
        // A long query limit: the test, not the timeout, decides how the held write ends.
        let link = PostgresLink(url: url, timeout: .seconds(20), logger: logger)
        return try PostgresAllowListStore(link: link, zone: "hall", term: term, logger: logger)
      }
      configuration.security = security
      broker = try BrokerThread(configuration: configuration, context: context, logger: logger)
      control = try Socket(context, .dealer)
      try control.setCurveClient(serverKey: brokerKey.publicKey, keyPair: screenKey)
      try control.connect("inproc://c-\(unique)")
      state = try Socket(context, .subscriber)
      try state.setCurveClient(serverKey: brokerKey.publicKey, keyPair: screenKey)
      try state.subscribe(WireProtocol.heartbeatTopic)
      try state.subscribe("pairing")
      try state.connect("inproc://s-\(unique)")
      pairing = try Socket(context, .dealer)
      try pairing.connect("inproc://p-\(unique)")
      locker = PostgresLink(url: url, timeout: .seconds(20), logger: logger)
    }

    deinit {
      locker.close()
      control.close()
      state.close()
      pairing.close()
      broker.stop()
    }

    /// Starts a remote's pairing and proves the PIN the broker sealed to the screen's key;
    /// returns the proof's seq and the tag the broker's confirmation must carry.
    func prove(as remote: CurveKeyPair) throws -> (seq: UInt64, brokerTag: [UInt8]) {
      let messages = try PairingMessages(publicKey: remote.publicKey, name: "phone")
      let (request, remoteNonce) = messages.roundRequest(next: false)
      try send(request, on: pairing)
      let answer = try #require(try reply(on: pairing), "no challenge")
      let challenge = try PairingMessages.challenge(from: answer.body, remoteNonce: remoteNonce)
      let pin = try #require(try promptedPIN(), "no PIN prompt for the screen")
      let (proof, brokerTag) = try messages.proof(pin: pin, challenge: challenge)
      return (try send(proof, on: pairing), brokerTag)
    }

    /// The PIN of the next pairing prompt (opened with the screen's key), within 5 s.
    func promptedPIN() throws -> String? {
      let deadline = Date(timeIntervalSinceNow: 5)
      while Date() < deadline {
        guard let frames = try SocketWait.message(on: state, within: 1), frames.count == 2,
          String(decoding: frames[0], as: UTF8.self) == "pairing",
          case .pairingPrompt(let prompt) = try Tenfoot_V1_Envelope.decode(frames[1]).body
        else { continue }
        for sealed in prompt.sealed {
          if let pin = SealedPIN.open([UInt8](sealed.box), with: screenKey) { return pin }
        }
      }
      return nil
    }

    /// Takes the zone's row lock in an open transaction: the broker's writes wait on it.
    func holdZoneRow() throws {
      try locker.query("BEGIN")
      try locker.query("SELECT term FROM tenfoot_zone WHERE name = 'hall' FOR UPDATE")
    }

    /// Waits (bounded) until `count` sessions wait for a lock: the broker's write is held.
    func waitForWritesWaiting(_ count: Int) throws {
      let deadline = ContinuousClock.now + .seconds(10)
      while ContinuousClock.now < deadline {
        let waiting = try locker.query(
          "SELECT count(*)::int8 FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        if try waiting.rows.first?.decode(Int64.self) == Int64(count) { return }
        Thread.sleep(forTimeInterval: 0.01)
      }
      Issue.record("the broker's write never waited on the test's lock")
    }

    /// Whether a heartbeat arrives within `seconds` (after dropping what was queued before).
    func heartbeatArrives(within seconds: Double) throws -> Bool {
      while try SocketWait.message(on: state, within: 0) != nil {}
      let deadline = Date(timeIntervalSinceNow: seconds)
      while let frames = try SocketWait.message(
        on: state, within: max(0, deadline.timeIntervalSinceNow))
      {
        if String(decoding: frames[0], as: UTF8.self) == WireProtocol.heartbeatTopic {
          return true
        }
      }
      return false
    }

    /// The zone's peers with `role`, as the store holds them (revoked ones not counted).
    func storedPeers(_ role: String) throws -> String {
      try postgres.psql(
        "SELECT count(*) FROM tenfoot_peer WHERE zone = 'hall' AND role = '\(role)' AND revoked_at IS NULL"
      )
    }
  }

  @Test("while a pairing's write waits on a lock the broker beats and answers; it pairs after")
  func servesWhileWriting() throws {
    let stack = try Stack(logger: logger)
    let remote = try CurveKeyPair.generate()
    try stack.holdZoneRow()
    let (proved, brokerTag) = try stack.prove(as: remote)
    try stack.waitForWritesWaiting(1)
    // The loop is free: heartbeats go on (four, 50 ms apart: longer than the allow-list's
    // 100 ms check for changes, which must not wait behind the write), a Hello is answered.
    for beat in 1...4 {
      #expect(
        try stack.heartbeatArrives(within: 2), "no heartbeat \(beat) while the write was in flight")
    }
    let hello = try stack.send(.hello(.init()), on: stack.control)
    let welcome = try #require(
      try stack.reply(on: stack.control), "Hello unanswered during the write")
    #expect(welcome.replyTo == hello)
    // The pairing is not answered while its key is not durable.
    #expect(try stack.reply(on: stack.pairing, within: 0.2) == nil, "paired before durable")
    #expect(try stack.storedPeers("remote") == "0")
    try stack.locker.query("COMMIT")
    let answer = try #require(try stack.reply(on: stack.pairing), "the pairing never answered")
    #expect(answer.replyTo == proved)
    let attempt = try PairingMessages.attempt(from: answer.body, brokerTag: brokerTag)
    #expect(attempt == .paired(id: AllowList.id(of: remote.publicKey)))
    #expect(try stack.storedPeers("remote") == "1")
  }

  @Test("a write fenced while held answers STORE_UNAVAILABLE and stores nothing")
  func fencedWriteRefusesThePairing() throws {
    let stack = try Stack(logger: logger)
    let remote = try CurveKeyPair.generate()
    try stack.holdZoneRow()
    let (proved, _) = try stack.prove(as: remote)
    try stack.waitForWritesWaiting(1)
    // A takeover: the term moves on while the write waits, so its fence matches no row.
    try stack.locker.query("UPDATE tenfoot_zone SET term = term + 1 WHERE name = 'hall'")
    try stack.locker.query("COMMIT")
    let answer = try #require(try stack.reply(on: stack.pairing), "the pairing never answered")
    #expect(answer.replyTo == proved)
    guard case .error(let error) = answer.body else {
      Issue.record("paired although the write was fenced: \(answer.body)")
      return
    }
    #expect(error.code == .storeUnavailable, "\(error)")
    #expect(try stack.storedPeers("remote") == "0")
  }
}
