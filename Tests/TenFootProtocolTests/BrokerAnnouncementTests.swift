import TenFootProtocol
import Testing

@Suite("Discovery: the broker's TXT record, checked; choosing an answer")
struct BrokerAnnouncementTests {
  static let valid = BrokerAnnouncement(
    name: "Living room", zone: "home", controlPort: 7700, statePort: 7701, pairingPort: 7702,
    fingerprint: "1a2b3c4d")

  /// The valid record's strings with `key`'s string replaced by `entry` (or dropped for nil).
  static func record(replacing key: String, with entry: String?) -> [[UInt8]] {
    valid.txtStrings.compactMap { string in
      string.hasPrefix(key + "=") ? entry : string
    }.map { Array($0.utf8) }
  }

  static func refusal(_ entries: [[UInt8]]) -> AnnouncementError? {
    do {
      _ = try BrokerAnnouncement.parse(entries)
      return nil
    } catch {
      return error
    }
  }

  @Test("a record round-trips, in the documented order, and unknown keys are ignored")
  func roundTrip() throws {
    #expect(
      Self.valid.txtStrings == [
        "txtvers=1", "proto=1", "name=Living room", "zone=home", "control=7700", "state=7701",
        "pairing=7702", "fp=1a2b3c4d",
      ])
    let entries = Self.valid.txtStrings.map { Array($0.utf8) } + [Array("future=yes".utf8)]
    #expect(try BrokerAnnouncement.parse(entries.reversed()) == Self.valid)
    // Keys are case-insensitive (RFC 6763 §6.4); an empty zone is a broker outside zones.
    var upper = Self.record(replacing: "fp", with: "FP=1a2b3c4d")
    upper = upper.map { $0 == Array("zone=home".utf8) ? Array("zone=".utf8) : $0 }
    #expect(try BrokerAnnouncement.parse(upper).zone == "")
  }

  @Test("an oversized record, string or name is refused")
  func oversized() {
    let long = [UInt8](repeating: UInt8(ascii: "a"), count: 300)
    #expect(
      Self.refusal(Self.valid.txtStrings.map { Array($0.utf8) } + [Array("x=".utf8) + long])
        == .tooLarge(bytes: 302))
    let many = (0..<40).map { Array("k\($0)=v".utf8) }
    #expect(
      Self.refusal(Self.valid.txtStrings.map { Array($0.utf8) } + many) == .tooManyEntries(48))
    let wide = (0..<8).map { Array("k\($0)=".utf8) + [UInt8](repeating: 0x61, count: 200) }
    guard case .tooLarge = Self.refusal(Self.valid.txtStrings.map { Array($0.utf8) } + wide)
    else {
      Issue.record("a 1600-byte record was accepted")
      return
    }
    let name = "name=" + String(repeating: "é", count: 32)  // 64 bytes
    #expect(
      Self.refusal(Self.record(replacing: "name", with: name))
        == .badText(key: "name", reason: "it is 64 bytes, more than 63"))
    #expect(
      Self.refusal(
        Self.record(replacing: "zone", with: "zone=" + String(repeating: "z", count: 65)))
        == .badText(key: "zone", reason: "it is not 0 to 64 printable ASCII characters"))
  }

  @Test("control, format and invalid characters in the name are refused")
  func controlCharacters() {
    for (name, scalar) in [
      ("Living\u{1B}[2Jroom", "1B"), ("bell\u{07}", "7"), ("evil\u{202E}txt", "202E"),
      ("line\u{2028}break", "2028"), ("nul\u{0}", "0"), ("c1\u{9B}", "9B"),
    ] {
      #expect(
        Self.refusal(Self.record(replacing: "name", with: "name=" + name))
          == .badText(key: "name", reason: "it holds the character U+\(scalar)"), "\(name)")
    }
    var bad = Self.record(replacing: "name", with: nil)
    bad.append(Array("name=".utf8) + [0xFF, 0xFE])
    #expect(Self.refusal(bad) == .badText(key: "name", reason: "it is not UTF-8"))
    #expect(
      Self.refusal(Self.record(replacing: "name", with: "name="))
        == .badText(key: "name", reason: "it is empty"))
    #expect(
      Self.refusal(Self.record(replacing: "zone", with: "zone=a b"))
        == .badText(key: "zone", reason: "it is not 0 to 64 printable ASCII characters"))
    #expect(throws: AnnouncementError.self) {
      try BrokerAnnouncement.checkInstanceName("TV\u{1B}]0;owned\u{07}")
    }
    #expect(throws: Never.self) { try BrokerAnnouncement.checkInstanceName("Living room #2") }
  }

  @Test("bad ports are refused")
  func badPorts() {
    for value in ["0", "65536", "-1", "+7700", " 7700", "07700", "77a0", "", "99999999999"] {
      #expect(
        Self.refusal(Self.record(replacing: "control", with: "control=" + value))
          == .badPort(key: "control", value: value), "control=\(value)")
    }
    #expect(Self.refusal(Self.record(replacing: "pairing", with: "pairing=7700")) == .sharedPort)
    #expect(Self.refusal(Self.record(replacing: "state", with: nil)) == .missingKey("state"))
  }

  @Test("a wrong protocol or record version, a bad fingerprint, malformed strings are refused")
  func versionsAndShape() {
    #expect(
      Self.refusal(Self.record(replacing: "proto", with: "proto=2"))
        == .unsupportedProtocol(announced: 2, supported: WireProtocol.version))
    #expect(
      Self.refusal(Self.record(replacing: "proto", with: "proto=one"))
        == .badNumber(key: "proto", value: "one"))
    #expect(
      Self.refusal(Self.record(replacing: "txtvers", with: "txtvers=2"))
        == .unsupportedRecordVersion("2"))
    for fingerprint in ["1A2B3C4D", "1a2b3c", "1a2b3c4d5e", "zzzzzzzz", ""] {
      #expect(
        Self.refusal(Self.record(replacing: "fp", with: "fp=" + fingerprint))
          == .badFingerprint(fingerprint))
    }
    #expect(
      Self.refusal(Self.valid.txtStrings.map { Array($0.utf8) } + [Array("fp=1a2b3c4d".utf8)])
        == .duplicateKey("fp"))
    #expect(
      Self.refusal(Self.valid.txtStrings.map { Array($0.utf8) } + [Array("novalue".utf8)])
        == .malformedEntry("novalue"))
    #expect(
      Self.refusal(Self.valid.txtStrings.map { Array($0.utf8) } + [[0x1B, 0x3D, 0x31]])
        == .malformedEntry("\\x1b=1"))
    // The message names the cause, with the hostile bytes escaped.
    #expect(
      AnnouncementError.malformedEntry("\\x1b=1").description
        == #"a TXT string is not key=value: "\x1b=1""#)
  }

  static func answer(_ instance: String, _ address: String, fingerprint: String)
    -> DiscoveredBroker
  {
    var announcement = valid
    announcement.name = instance
    announcement.fingerprint = fingerprint
    return DiscoveredBroker(instance: instance, address: address, announcement: announcement)
  }

  @Test("a forged answer with another fingerprint never wins over the pinned key")
  func forgedAnswer() throws {
    let real = Self.answer("Living room", "10.0.0.2", fingerprint: "1a2b3c4d")
    let forged = Self.answer("Living room", "10.0.0.66", fingerprint: "deadbeef")
    let pins = ["tcp://10.0.0.2:7700": "1a2b3c4d"]
    // Paired with the real one: it wins whatever the order.
    for answers in [[forged, real], [real, forged]] {
      #expect(
        try DiscoveredBroker.choose(named: "Living room", among: answers) { pins[$0] } == real)
    }
    // The forger answers for the real broker's address with its own key: refused.
    let hijack = Self.answer("Living room", "10.0.0.2", fingerprint: "deadbeef")
    #expect(
      throws: DiscoveryError.fingerprintMismatch(
        name: "Living room", endpoint: "tcp://10.0.0.2:7700", announced: "deadbeef",
        pinned: "1a2b3c4d")
    ) {
      try DiscoveredBroker.choose(named: "Living room", among: [hijack]) { pins[$0] }
    }
    // Not paired with either: two brokers of one name are refused, not guessed.
    #expect(
      throws: DiscoveryError.ambiguous(
        name: "Living room", endpoints: ["tcp://10.0.0.2:7700", "tcp://10.0.0.66:7700"])
    ) {
      try DiscoveredBroker.choose(named: "Living room", among: [real, forged]) { _ in nil }
    }
    #expect(throws: DiscoveryError.notFound(name: "Kitchen", seen: ["Living room"])) {
      try DiscoveredBroker.choose(named: "Kitchen", among: [real]) { _ in nil }
    }
    #expect(real.endpoints.pairing == "tcp://10.0.0.2:7702")
    #expect(real.trust(pinnedID: "deadbeef") == .mismatch(pinned: "deadbeef"))
  }
}
