import Foundation
import TenFootSecurity
import TestSupport
import Testing
import ZeroMQ

/// The pairing rules themselves are pure and tested in BrokerDomainTests; this is the CPace
/// round the broker's runtime checks confirmations with (`PairingProof` on `CPace`).
@Suite("Pairing on CPace")
struct PairingProofTests {
  let remoteKey = [UInt8](repeating: 7, count: 32)
  let brokerKey = [UInt8](repeating: 9, count: 32)
  let brokerNonce = [UInt8](repeating: 1, count: 32)
  let remoteNonce = [UInt8](repeating: 2, count: 32)

  /// What an eavesdropper records of one round: everything on the wire.
  struct Recording {
    var brokerShare: [UInt8]
    var remoteShare: [UInt8]
    var remoteTag: [UInt8]
    var brokerTag: [UInt8]?
  }

  /// One round with `pin` on the remote's side; the broker's PIN is `brokerPIN`.
  func round(brokerPIN: String, pin: String) throws -> Recording {
    let broker = PairingProof.broker(
      pin: brokerPIN, brokerKey: brokerKey, remoteKey: remoteKey, brokerNonce: brokerNonce,
      remoteNonce: remoteNonce)
    let remote = PairingProof.remote(
      pin: pin, brokerKey: brokerKey, remoteKey: remoteKey, brokerNonce: brokerNonce,
      remoteNonce: remoteNonce)
    let keys = try #require(
      remote.finish(peerShare: broker.share, peerData: PairingProof.brokerData))
    let brokerTag = PairingProof.brokerConfirms(
      broker, remoteShare: remote.share, tag: keys.ownTag)
    if let brokerTag { #expect(brokerTag == keys.peerTag) }
    return Recording(
      brokerShare: broker.share, remoteShare: remote.share, remoteTag: keys.ownTag,
      brokerTag: brokerTag)
  }

  @Test("the right PIN confirms both ways; a wrong PIN, other keys or nonces do not")
  func binding() throws {
    #expect(try round(brokerPIN: "1234", pin: "1234").brokerTag != nil)
    #expect(try round(brokerPIN: "1234", pin: "1235").brokerTag == nil)
    let broker = PairingProof.broker(
      pin: "1234", brokerKey: brokerKey, remoteKey: remoteKey, brokerNonce: brokerNonce,
      remoteNonce: remoteNonce)
    // A remote that believes in another broker key, remote key or nonce derives another ISK.
    let others = [
      (brokerKey: remoteKey, remoteKey: remoteKey, nonce: brokerNonce),
      (brokerKey: brokerKey, remoteKey: brokerKey, nonce: brokerNonce),
      (brokerKey: brokerKey, remoteKey: remoteKey, nonce: remoteNonce),
    ]
    for other in others {
      let remote = PairingProof.remote(
        pin: "1234", brokerKey: other.brokerKey, remoteKey: other.remoteKey,
        brokerNonce: other.nonce, remoteNonce: remoteNonce)
      let keys = try #require(
        remote.finish(peerShare: broker.share, peerData: PairingProof.brokerData))
      #expect(
        PairingProof.brokerConfirms(broker, remoteShare: remote.share, tag: keys.ownTag) == nil)
    }
    // A bad share is refused, not multiplied.
    #expect(
      PairingProof.brokerConfirms(
        broker, remoteShare: [UInt8](repeating: 0, count: 32), tag: []) == nil)
    let pins = Set((0..<200).map { _ in PairingProof.randomPIN() })
    #expect(pins.allSatisfy { $0.count == 6 && $0.allSatisfy(\.isNumber) })
    #expect(pins.count > 150, "PINs look random")
  }

  /// The eavesdropper's offline attack: for every one of the 10,000 PINs, compute what the
  /// recorded confirmations would be under that PIN and compare. With the old HMAC this found
  /// the PIN at once. Here it cannot: a confirmation is keyed from ISK, ISK from K = y * (the
  /// other's share), and both scalars y stay secret on their own sides, so the attacker can only
  /// run CPace with a scalar of its own, which gives another K even for the right PIN (finding
  /// the recorded K from the two shares is the Diffie-Hellman problem). As a control, the same
  /// check with the broker's secret scalar does verify, so the comparison itself can succeed.
  @Test("a recorded round plus all 10,000 PINs never yields a confirmation that verifies")
  func offlineDictionary() throws {
    let secret = CPace.sampleScalar()
    let broker = PairingProof.broker(
      pin: "4711", brokerKey: brokerKey, remoteKey: remoteKey, brokerNonce: brokerNonce,
      remoteNonce: remoteNonce, secret: secret)
    let remote = PairingProof.remote(
      pin: "4711", brokerKey: brokerKey, remoteKey: remoteKey, brokerNonce: brokerNonce,
      remoteNonce: remoteNonce)
    let keys = try #require(
      remote.finish(peerShare: broker.share, peerData: PairingProof.brokerData))
    let brokerTag = try #require(
      PairingProof.brokerConfirms(broker, remoteShare: remote.share, tag: keys.ownTag))
    let recorded = Recording(
      brokerShare: broker.share, remoteShare: remote.share, remoteTag: keys.ownTag,
      brokerTag: brokerTag)

    var verified: [String] = []
    for guess in (0..<10_000).map({ String(format: "%04d", $0) }) {
      // Posing as the remote against the recorded broker share...
      let asRemote = PairingProof.remote(
        pin: guess, brokerKey: brokerKey, remoteKey: remoteKey, brokerNonce: brokerNonce,
        remoteNonce: remoteNonce)
      if let tags = asRemote.finish(
        peerShare: recorded.brokerShare, peerData: PairingProof.brokerData),
        tags.ownTag == recorded.remoteTag || tags.peerTag == recorded.brokerTag
      {
        verified.append(guess)
      }
      // ...and as the broker against the recorded remote share.
      let asBroker = PairingProof.broker(
        pin: guess, brokerKey: brokerKey, remoteKey: remoteKey, brokerNonce: brokerNonce,
        remoteNonce: remoteNonce)
      if PairingProof.brokerConfirms(
        asBroker, remoteShare: recorded.remoteShare, tag: recorded.remoteTag) != nil
      {
        verified.append(guess)
      }
    }
    #expect(verified.isEmpty, "guesses that checked against the recording: \(verified)")

    // Control: with the broker's secret scalar (which never leaves the broker) the recorded
    // confirmation verifies for the right PIN only.
    let withSecret = { (pin: String) in
      PairingProof.brokerConfirms(
        PairingProof.broker(
          pin: pin, brokerKey: self.brokerKey, remoteKey: self.remoteKey,
          brokerNonce: self.brokerNonce, remoteNonce: self.remoteNonce, secret: secret),
        remoteShare: recorded.remoteShare, tag: recorded.remoteTag)
    }
    #expect(withSecret("4711") == brokerTag)
    #expect(withSecret("4712") == nil)
  }
}

extension AllowList.Match {
  /// Whether one entry matched.
  var isOne: Bool {
    if case .one = self { true } else { false }
  }
}

@Test("a PIN sealed to a screen key opens only with that key")
func sealedPIN() throws {
  let screen = try CurveKeyPair.generate()
  let spy = try CurveKeyPair.generate()
  let box = try #require(SealedPIN.seal("042137", to: screen.publicKey))
  #expect(SealedPIN.open(box, with: screen) == "042137")
  #expect(SealedPIN.open(box, with: spy) == nil)
  var tampered = box
  tampered[tampered.count - 1] ^= 1
  #expect(SealedPIN.open(tampered, with: screen) == nil)
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
    guard case .one(let entry) = removed else {
      Issue.record("nothing revoked: \(removed)")
      return
    }
    #expect(entry.publicKey == key)
    #expect(try broker.reloadIfChanged())
    #expect(broker.list.entries.isEmpty)
    _ = try directory.write("future.json", #"{"version": 9, "entries": []}"#)
    #expect(throws: StoreError.unsupportedVersion(directory.path + "/future.json", 9)) {
      try AllowList.load(directory.path + "/future.json")
    }
  }

  @Test("keys sharing their first 4 bytes get distinct ids; revoke needs an unambiguous name")
  func sharedPrefix() throws {
    let first = [UInt8](repeating: 0xAB, count: 4) + [UInt8](repeating: 1, count: 28)
    let second = [UInt8](repeating: 0xAB, count: 4) + [UInt8](repeating: 2, count: 28)
    let a = try #require(Z85.encode(first))
    let b = try #require(Z85.encode(second))
    var list = AllowList()
    list.allow(.init(publicKey: a, name: "a", role: .remote, added: 1))
    list.allow(.init(publicKey: b, name: "b", role: .remote, added: 2))
    #expect(list.entries.map(\.id) == ["abababab", "abababab02"])
    #expect(list.find("abab") == .ambiguous(["abababab", "abababab02"]))
    // The whole key removes exactly that peer, whoever shares its prefix.
    let entryB = list.entries[1]
    #expect(list.revoke(b) == .one(entryB))
    #expect(list.entries.map(\.name) == ["a"])
    #expect(list.revoke(Hex.encode(first)).isOne)
    #expect(list.entries.isEmpty && list.revoke("abababab") == .none)
  }

  @Test("a screen key owns the ids it claims; re-allowing a key keeps its screens")
  func screenBinding() throws {
    let key = try CurveKeyPair.generate().publicKey
    var list = AllowList()
    list.allow(.init(publicKey: key, name: "tv", role: .screen, added: 1))
    let hex = try #require(list.entries.first?.keyHex)
    list.bind(screen: "main", toKeyHex: hex)
    list.bind(screen: "main", toKeyHex: hex)
    list.allow(.init(publicKey: key, name: "living-room tv", role: .screen, added: 2))
    #expect(list.entries.first?.screens == ["main"])
    #expect(list.screenOwners == ["main": hex])
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
