import BrokerCore
import Foundation
import TenFootSecurity
import TestSupport
import Testing
import ZeroMQ

@Suite("Pairing session rules")
struct PairingSessionTests {
  let remote = [UInt8](repeating: 7, count: 32)
  let broker = [UInt8](repeating: 9, count: 32)
  let nonce = [UInt8](repeating: 1, count: 32)
  var remoteText: String { Z85.encode(remote) ?? "" }

  func proof(_ pin: String) -> [UInt8] {
    PairingProof.make(pin: pin, nonce: nonce, remoteKey: remote, brokerKey: broker)
  }

  @Test("back-off: 1 s doubling per failure, capped at 64 s")
  func backoffSequence() {
    let seconds = (1...9).map { PairingSession.backoff(afterFailures: $0) / 1_000_000_000 }
    #expect(seconds == [1, 2, 4, 8, 16, 32, 64, 64, 64])
    #expect(PairingSession.backoff(afterFailures: 0) == 0)
  }

  @Test("the right proof pairs; a wrong one blocks every attempt until the back-off ends")
  func wrongThenRight() {
    var session = PairingSession()
    let start: UInt64 = 1_000_000_000
    guard
      case .challenge(let pending) = session.begin(
        remoteKey: remoteText, name: "phone", now: start, nonce: nonce, pin: "1234")
    else {
      Issue.record("begin did not challenge")
      return
    }
    #expect(pending.pin == "1234")
    let wrong = session.prove(
      remoteKey: remoteText, remoteKeyBytes: remote, brokerKey: broker, proof: proof("9999"),
      now: start + 1)
    #expect(wrong == .wrongPIN(retryAfter: 1_000_000_000))
    // During the back-off even the right PIN is refused, and so is a new pairing.
    let early = session.prove(
      remoteKey: remoteText, remoteKeyBytes: remote, brokerKey: broker, proof: proof("1234"),
      now: start + 500_000_000)
    #expect(early == .backoff(retryAfter: 500_000_001))
    let other = session.begin(
      remoteKey: "other", name: "x", now: start + 500_000_000, nonce: nonce, pin: "0000")
    #expect(other == .backoff(retryAfter: 500_000_001))
    let right = session.prove(
      remoteKey: remoteText, remoteKeyBytes: remote, brokerKey: broker, proof: proof("1234"),
      now: start + 2_000_000_000)
    #expect(right == .paired(pending))
    #expect(session.failures == 0 && session.pending == nil)
  }

  @Test("a proof for another key, after expiry, or without a pairing is refused")
  func noPairing() {
    var session = PairingSession(lifetimeSeconds: 10)
    let before = session.prove(
      remoteKey: remoteText, remoteKeyBytes: remote, brokerKey: broker, proof: proof("1234"),
      now: 0)
    #expect(before == .noPairing)
    _ = session.begin(remoteKey: remoteText, name: "a", now: 0, nonce: nonce, pin: "1234")
    let otherKey = session.prove(
      remoteKey: "someone-else", remoteKeyBytes: remote, brokerKey: broker,
      proof: proof("1234"), now: 1)
    #expect(otherKey == .noPairing)
    let early = session.expire(now: 9_999_999_999)
    let late = session.expire(now: 10_000_000_000)
    #expect(!early && late)
    let expired = session.prove(
      remoteKey: remoteText, remoteKeyBytes: remote, brokerKey: broker, proof: proof("1234"),
      now: 10_000_000_001)
    #expect(expired == .noPairing)
  }

  @Test("proofs bind the PIN, nonce, both keys and the role")
  func proofBinding() {
    let good = proof("1234")
    #expect(good.count == 32)
    #expect(
      PairingProof.verify(good, pin: "1234", nonce: nonce, remoteKey: remote, brokerKey: broker))
    #expect(
      !PairingProof.verify(good, pin: "1235", nonce: nonce, remoteKey: remote, brokerKey: broker))
    #expect(
      !PairingProof.verify(
        good, pin: "1234", nonce: [UInt8](repeating: 2, count: 32), remoteKey: remote,
        brokerKey: broker))
    #expect(
      !PairingProof.verify(good, pin: "1234", nonce: nonce, remoteKey: broker, brokerKey: remote))
    #expect(
      !PairingProof.verify(
        good, role: .broker, pin: "1234", nonce: nonce, remoteKey: remote, brokerKey: broker))
    #expect(
      !PairingProof.verify([], pin: "1234", nonce: nonce, remoteKey: remote, brokerKey: broker))
    let pins = Set((0..<200).map { _ in PairingProof.randomPIN() })
    #expect(pins.allSatisfy { $0.count == 4 && $0.allSatisfy(\.isNumber) })
    #expect(pins.count > 150, "PINs look random")
  }
}

@Suite("ZAP policy")
struct ZapPolicyTests {
  func request(mechanism: String = "CURVE", key: [UInt8]) -> ZapPolicy.Request? {
    ZapPolicy.Request(frames: [
      Array("1.0".utf8), Array("7".utf8), Array(ZapPolicy.domain.utf8), Array("10.0.0.2".utf8),
      [], Array(mechanism.utf8), key,
    ])
  }

  @Test("allow-listed keys get peer:<id>; unknown keys, other mechanisms and junk are refused")
  func decisions() throws {
    let pair = try CurveKeyPair.generate()
    let key = try #require(Z85.decode(pair.publicKey))
    var list = AllowList()
    list.allow(.init(publicKey: pair.publicKey, name: "tv", role: .screen, added: 0))
    let admitted = ZapPolicy.decide(try #require(request(key: key)), allowList: list)
    #expect(admitted.admitted)
    #expect(admitted.userID == "peer:\(AllowList.id(of: pair.publicKey))")
    #expect(PeerAccess(userID: admitted.userID) == .peer(id: AllowList.id(of: pair.publicKey)))
    #expect(admitted.frames(requestID: Array("7".utf8))[2] == Array("200".utf8))

    let stranger = [UInt8](repeating: 3, count: 32)
    let refused = ZapPolicy.decide(try #require(request(key: stranger)), allowList: list)
    #expect(!refused.admitted && refused.status == "400")
    #expect(
      !ZapPolicy.decide(try #require(request(mechanism: "NULL", key: [])), allowList: list).admitted
    )
    #expect(!ZapPolicy.decide(try #require(request(key: [1, 2, 3])), allowList: list).admitted)
    #expect(ZapPolicy.Request(frames: [Array("2.0".utf8)]) == nil)
    #expect(PeerAccess(userID: nil) == .local && PeerAccess(userID: "") == .local)
  }
}

@Suite("Stores: atomic files, keys, allow-list, pinned brokers")
struct StoreTests {
  @Test("key files are created 0600, reused, and refused when others can read them")
  func keyFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/key.json"
    let first = try KeyFile.loadOrCreate(path)
    #expect(try KeyFile.loadOrCreate(path) == first)
    #expect(
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    chmod(path, 0o644)
    #expect(throws: StoreError.self) { try KeyFile.loadOrCreate(path) }
  }

  @Test("the allow-list store sees another process's change and survives a torn temp file")
  func allowListStore() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/allow-list.json"
    let broker = try AllowListStore(path: path)
    let cli = try AllowListStore(path: path)
    let key = try CurveKeyPair.generate().publicKey
    try cli.modify { $0.allow(.init(publicKey: key, name: "phone", role: .remote, added: 1)) }
    #expect(try broker.reloadIfChanged())
    #expect(broker.list.entry(publicKey: key)?.name == "phone")
    #expect(try !broker.reloadIfChanged())
    // A leftover temporary file from a crash mid-write changes nothing.
    _ = try directory.write("allow-list.json.tmp-1", "{ torn")
    #expect(try AllowList.load(path).entries.count == 1)
    let removed = try cli.modify { $0.revoke(AllowList.id(of: key)) }
    #expect(removed?.publicKey == key)
    #expect(try broker.reloadIfChanged())
    #expect(broker.list.entries.isEmpty)
    _ = try directory.write("future.json", #"{"version": 9, "entries": []}"#)
    #expect(throws: StoreError.unsupportedVersion(directory.path + "/future.json", 9)) {
      try AllowList.load(directory.path + "/future.json")
    }
  }

  @Test("state directories are created 0700 and refused when open to others")
  func stateDirectory() throws {
    let directory = try TemporaryDirectory()
    let path = try StateDirectory.prepare(explicit: directory.path + "/a/b", program: "remote")
    var info = stat()
    #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o700)
    chmod(path, 0o755)
    #expect(throws: StoreError.self) { try StateDirectory.makePrivateDirectory(path) }
  }
}
