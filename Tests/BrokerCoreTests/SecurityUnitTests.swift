import BrokerCore
import BrokerDomain
import Foundation
import TenFootSecurity
import TestSupport
import Testing
import ZeroMQ

/// The pairing rules themselves are pure and tested in BrokerDomainTests; the HMAC the
/// runtime checks proofs with is TenFootSecurity's.
@Suite("Pairing proofs")
struct PairingProofTests {
  let remote = [UInt8](repeating: 7, count: 32)
  let broker = [UInt8](repeating: 9, count: 32)
  let nonce = [UInt8](repeating: 1, count: 32)

  func proof(_ pin: String) -> [UInt8] {
    PairingProof.make(pin: pin, nonce: nonce, remoteKey: remote, brokerKey: broker)
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
