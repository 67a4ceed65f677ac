/// What a broker announces about itself with DNS-SD (`_tenfoot._tcp`, over mDNS): its name,
/// zone, ports, protocol version and the fingerprint of its CURVE key, as the TXT record's
/// `key=value` strings (docs/protocol.md, "Discovery"). Pure: built and checked here, sent and
/// received by TenFootDiscovery.
///
/// Anyone on the network can answer an mDNS query, so a received record is hostile until
/// `parse` has checked every field. Discovery supplies addresses only: the fingerprint is a
/// hint that lets a paired remote refuse an answer early; the CURVE handshake with the pinned
/// key is what proves the broker.
public struct BrokerAnnouncement: Sendable, Equatable {
  /// The DNS-SD service type.
  public static let serviceType = "_tenfoot._tcp"
  /// The TXT record format's version (`txtvers`).
  public static let recordVersion = 1
  /// The longest name (a DNS label: 63 bytes of UTF-8).
  public static let maxNameBytes = 63
  /// The longest zone (as `tenfoot-broker --zone` allows).
  public static let maxZoneBytes = 64
  /// The longest TXT record accepted, all strings with their length bytes (RFC 6763 §6.2
  /// recommends at most 1300 bytes for mDNS).
  public static let maxRecordBytes = 1300
  /// The most strings accepted in one TXT record.
  public static let maxEntries = 32

  /// The broker's name (the DNS-SD instance name it asks for).
  public var name: String
  /// Its zone, or empty for a broker that is not in one.
  public var zone: String
  /// The control (ROUTER) port.
  public var controlPort: UInt16
  /// The state (PUB) port.
  public var statePort: UInt16
  /// The pairing port.
  public var pairingPort: UInt16
  /// The wire protocol version it speaks.
  public var protocolVersion: UInt32
  /// The short id of its CURVE public key (`AllowList.id`: 8 lowercase hex digits), the one
  /// its screens show while pairing.
  public var fingerprint: String

  /// An announcement.
  public init(
    name: String, zone: String = "", controlPort: UInt16, statePort: UInt16,
    pairingPort: UInt16, protocolVersion: UInt32 = WireProtocol.version, fingerprint: String
  ) {
    self.name = name
    self.zone = zone
    self.controlPort = controlPort
    self.statePort = statePort
    self.pairingPort = pairingPort
    self.protocolVersion = protocolVersion
    self.fingerprint = fingerprint
  }

  /// The TXT record's strings, in this order.
  public var txtStrings: [String] {
    [
      "txtvers=\(Self.recordVersion)", "proto=\(protocolVersion)", "name=\(name)", "zone=\(zone)",
      "control=\(controlPort)", "state=\(statePort)", "pairing=\(pairingPort)",
      "fp=\(fingerprint)",
    ]
  }

  /// Checks an announcement this broker is about to send (its own name and zone are flags).
  public func validate() throws(AnnouncementError) {
    _ = try Self.parse(txtStrings.map { Array($0.utf8) })
  }

  /// Reads and checks a received TXT record (its strings, raw bytes). Unknown keys are
  /// ignored (a later version may add some); everything else must be exactly right.
  public static func parse(_ entries: [[UInt8]]) throws(AnnouncementError) -> BrokerAnnouncement {
    guard entries.count <= maxEntries else { throw .tooManyEntries(entries.count) }
    let total = entries.reduce(0) { $0 + 1 + $1.count }
    guard total <= maxRecordBytes else { throw .tooLarge(bytes: total) }
    var fields: [String: [UInt8]] = [:]
    for entry in entries {
      guard entry.count <= 255 else { throw .tooLarge(bytes: entry.count) }
      guard let equals = entry.firstIndex(of: UInt8(ascii: "=")), equals > 0 else {
        throw .malformedEntry(printable(entry))
      }
      let keyBytes = entry[..<equals]
      // Keys are printable US-ASCII (RFC 6763 §6.4); compared case-insensitively.
      guard keyBytes.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
        throw .malformedEntry(printable(entry))
      }
      let key = String(decoding: keyBytes, as: UTF8.self).lowercased()
      guard fields[key] == nil else { throw .duplicateKey(key) }
      fields[key] = Array(entry[entry.index(after: equals)...])
    }
    func required(_ key: String) throws(AnnouncementError) -> [UInt8] {
      guard let value = fields[key] else { throw .missingKey(key) }
      return value
    }
    let recordVersion = try number(required("txtvers"), key: "txtvers", max: 255)
    guard recordVersion == UInt64(Self.recordVersion) else {
      throw .unsupportedRecordVersion(String(decoding: try required("txtvers"), as: UTF8.self))
    }
    let proto = try number(required("proto"), key: "proto", max: UInt64(UInt32.max))
    guard proto == UInt64(WireProtocol.version) else {
      throw .unsupportedProtocol(announced: UInt32(proto), supported: WireProtocol.version)
    }
    let name = try text(required("name"), key: "name", maxBytes: maxNameBytes)
    guard !name.isEmpty else { throw .badText(key: "name", reason: "it is empty") }
    let zoneBytes = try required("zone")
    guard zoneBytes.count <= maxZoneBytes,
      zoneBytes.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E })
    else {
      throw .badText(key: "zone", reason: "it is not 0 to 64 printable ASCII characters")
    }
    let control = try port(required("control"), key: "control")
    let state = try port(required("state"), key: "state")
    let pairing = try port(required("pairing"), key: "pairing")
    guard Set([control, state, pairing]).count == 3 else {
      throw .sharedPort
    }
    let fingerprint = try required("fp")
    guard fingerprint.count == 8,
      fingerprint.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else {
      throw .badFingerprint(printable(fingerprint))
    }
    return BrokerAnnouncement(
      name: name, zone: String(decoding: zoneBytes, as: UTF8.self), controlPort: control,
      statePort: state, pairingPort: pairing, protocolVersion: UInt32(proto),
      fingerprint: String(decoding: fingerprint, as: UTF8.self))
  }

  /// Checks a DNS-SD instance name (the name a browser lists; Avahi may have renamed a
  /// colliding one, e.g. "Living room #2"): the same rules as the TXT name.
  public static func checkInstanceName(_ name: String) throws(AnnouncementError) {
    _ = try text(Array(name.utf8), key: "instance name", maxBytes: maxNameBytes)
    guard !name.isEmpty else { throw .badText(key: "instance name", reason: "it is empty") }
  }

  /// Decimal digits only (no sign, space or leading zero), at most `max`.
  private static func number(_ bytes: [UInt8], key: String, max: UInt64) throws(AnnouncementError)
    -> UInt64
  {
    let shown = printable(bytes)
    guard !bytes.isEmpty, bytes.count <= 10, bytes.allSatisfy({ (0x30...0x39).contains($0) }),
      bytes.count == 1 || bytes[0] != 0x30
    else { throw .badNumber(key: key, value: shown) }
    let value = bytes.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - 0x30) }
    guard value <= max else { throw .badNumber(key: key, value: shown) }
    return value
  }

  private static func port(_ bytes: [UInt8], key: String) throws(AnnouncementError) -> UInt16 {
    guard let value = try? number(bytes, key: key, max: 65_535), value > 0 else {
      throw .badPort(key: key, value: printable(bytes))
    }
    return UInt16(value)
  }

  /// Valid UTF-8 of at most `maxBytes`, with no control, format (bidi overrides, zero-width)
  /// or line-separator characters: the name is shown on terminals and in logs.
  private static func text(_ bytes: [UInt8], key: String, maxBytes: Int) throws(AnnouncementError)
    -> String
  {
    guard bytes.count <= maxBytes else {
      throw .badText(key: key, reason: "it is \(bytes.count) bytes, more than \(maxBytes)")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw .badText(key: key, reason: "it is not UTF-8")
    }
    for scalar in text.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned,
        .privateUse:
        throw .badText(
          key: key,
          reason: "it holds the character U+\(String(scalar.value, radix: 16, uppercase: true))")
      default: continue
      }
    }
    return text
  }

  /// Bytes for an error message: printable ASCII kept, anything else as `\xNN`, at most 64.
  public static func printable(_ bytes: some Collection<UInt8>) -> String {
    var shown = ""
    for byte in bytes.prefix(64) {
      if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") {
        shown.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        shown += "\\x" + String(byte, radix: 16).leftPadded(to: 2)
      }
    }
    return bytes.count > 64 ? shown + "…" : shown
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

/// Why a TXT record is refused, with its cause; `description` says what is wrong.
public enum AnnouncementError: Error, Sendable, Equatable, CustomStringConvertible {
  /// More strings than `maxEntries`.
  case tooManyEntries(Int)
  /// The record (or one string) is larger than allowed.
  case tooLarge(bytes: Int)
  /// A string is not `key=value` with a printable ASCII key.
  case malformedEntry(String)
  /// A key appears twice.
  case duplicateKey(String)
  /// A required key is missing.
  case missingKey(String)
  /// `txtvers` is not 1.
  case unsupportedRecordVersion(String)
  /// The broker speaks another protocol version.
  case unsupportedProtocol(announced: UInt32, supported: UInt32)
  /// A number is not plain decimal digits in range.
  case badNumber(key: String, value: String)
  /// A port is not 1–65535 (or two ports are equal).
  case badPort(key: String, value: String)
  /// Two of the control, state and pairing ports are the same.
  case sharedPort
  /// The service's port (SRV record) is not the TXT record's control port.
  case portMismatch(service: UInt16, txt: UInt16)
  /// A name or zone is not acceptable text.
  case badText(key: String, reason: String)
  /// The fingerprint is not 8 lowercase hex digits.
  case badFingerprint(String)

  /// What is wrong.
  public var description: String {
    switch self {
    case .tooManyEntries(let count):
      "the TXT record has \(count) strings (at most \(BrokerAnnouncement.maxEntries))"
    case .tooLarge(let bytes):
      "the TXT record is too large (\(bytes) bytes; a string holds at most 255, the record "
        + "\(BrokerAnnouncement.maxRecordBytes))"
    case .malformedEntry(let entry): "a TXT string is not key=value: \"\(entry)\""
    case .duplicateKey(let key): "the TXT record has the key \"\(key)\" twice"
    case .missingKey(let key): "the TXT record has no \"\(key)\""
    case .unsupportedRecordVersion(let version):
      "the TXT record's format version is \"\(BrokerAnnouncement.printable(Array(version.utf8)))\", "
        + "not \(BrokerAnnouncement.recordVersion)"
    case .unsupportedProtocol(let announced, let supported):
      "the broker speaks protocol version \(announced); this program speaks \(supported)"
    case .badNumber(let key, let value): "\(key)=\"\(value)\" is not a valid number"
    case .badPort(let key, let value): "\(key)=\"\(value)\" is not a valid port (1-65535)"
    case .sharedPort: "the control, state and pairing ports are not three different ports"
    case .portMismatch(let service, let txt):
      "the service's port \(service) is not the TXT record's control port \(txt)"
    case .badText(let key, let reason): "the \(key) is refused: \(reason)"
    case .badFingerprint(let value):
      "fp=\"\(value)\" is not a key fingerprint (8 lowercase hex digits)"
    }
  }
}
