import Foundation

/// One line that tells a screen or remote where a broker is and which key it holds:
/// `tenfoot://KEY@HOST:PORT`, where `KEY` is the broker's CURVE public key in base64url (43
/// characters of `A–Z a–z 0–9 - _`) and `PORT` the control port; state and pairing are the next
/// two ports unless the line ends in `/STATE/PAIRING`; a zone's brokers are
/// `HOST:PORT,HOST:PORT`. No character of it needs quoting in bash, zsh or fish (no `?`, `&`,
/// `$` or `!`, unlike a Z85 key), so the line pastes safely.
public struct ConnectionString: Sendable, Equatable, CustomStringConvertible {
  /// The brokers' hosts and control ports (several: a zone).
  public var brokers: [(host: String, port: Int)]
  /// The state port of every broker (default: control + 1).
  public var statePort: Int?
  /// The pairing port (default: control + 2).
  public var pairingPort: Int?
  /// The broker's public key, raw 32 bytes.
  public var key: [UInt8]

  /// The URL scheme.
  public static let scheme = "tenfoot://"

  /// A connection string for `brokers` holding `key`.
  public init(brokers: [(host: String, port: Int)], key: [UInt8]) {
    self.brokers = brokers
    self.key = key
  }

  public static func == (a: ConnectionString, b: ConnectionString) -> Bool {
    a.description == b.description
  }

  /// Why a text is not a connection string.
  public enum ParseError: Error, Equatable, CustomStringConvertible {
    case notTenFoot
    case badBroker(String)
    case badKey
    case badPorts(String)

    public var description: String {
      switch self {
      case .notTenFoot: "a connection string starts with tenfoot://"
      case .badBroker(let text):
        "\(text) is not HOST:PORT (a port from 1 to 65535)"
      case .badKey:
        "the part before @ must be the broker's public key in base64url (43 characters; "
          + "tenfoot-broker invite prints the whole line)"
      case .badPorts(let text):
        "/\(text) must be /STATE_PORT/PAIRING_PORT (ports from 1 to 65535)"
      }
    }
  }

  /// Parses `text`.
  public init(parsing text: String) throws(ParseError) {
    guard text.hasPrefix(Self.scheme) else { throw .notTenFoot }
    let rest = text.dropFirst(Self.scheme.count)
    guard let at = rest.firstIndex(of: "@"),
      let key = Base64URL.decode(String(rest[..<at])), key.count == 32
    else { throw .badKey }
    let address = rest[rest.index(after: at)...]
    let parts = address.split(separator: "/", omittingEmptySubsequences: false)
    var brokers: [(host: String, port: Int)] = []
    for broker in parts[0].split(separator: ",", omittingEmptySubsequences: false) {
      guard let colon = broker.lastIndex(of: ":"),
        let port = Int(broker[broker.index(after: colon)...]), (1...65_535).contains(port),
        colon > broker.startIndex
      else { throw .badBroker(String(broker)) }
      brokers.append((String(broker[..<colon]), port))
    }
    self.brokers = brokers
    self.key = key
    guard parts.count > 1 else { return }
    let ports = parts.dropFirst().map { Int($0) }
    guard ports.count == 2, let state = ports[0], let pairing = ports[1],
      (1...65_535).contains(state), (1...65_535).contains(pairing)
    else { throw .badPorts(parts.dropFirst().joined(separator: "/")) }
    statePort = state
    pairingPort = pairing
  }

  /// The line, as `tenfoot-broker invite` prints it.
  public var description: String {
    var text =
      Self.scheme + Base64URL.encode(key) + "@"
      + brokers.map { "\($0.host):\($0.port)" }.joined(separator: ",")
    if statePort != nil || pairingPort != nil, let first = brokers.first {
      text += "/\(statePort ?? first.port + 1)/\(pairingPort ?? first.port + 2)"
    }
    return text
  }

  /// The endpoints it names (a zone's comma-separated, as `--control a,b` takes them).
  public var endpoints: Endpoints {
    let control = brokers.map { "tcp://\($0.host):\($0.port)" }
    let state = brokers.map { "tcp://\($0.host):\(statePort ?? $0.port + 1)" }
    var endpoints = Endpoints(
      control: control.joined(separator: ","), state: state.joined(separator: ","))
    if let pairingPort, let first = brokers.first {
      endpoints.pairing = "tcp://\(first.host):\(pairingPort)"
    }
    return endpoints
  }
}

/// Base64 with the URL- and shell-safe alphabet (RFC 4648 §5), without padding: Foundation's
/// base64 with `+/` swapped for `-_` and the `=` dropped.
public enum Base64URL {
  /// `bytes` encoded, no padding.
  public static func encode(_ bytes: [UInt8]) -> String {
    String(
      Data(bytes).base64EncodedString().map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }
        .filter { $0 != "=" })
  }

  /// The bytes of `text` (no padding, URL-safe alphabet); nil if it is not base64url.
  public static func decode(_ text: String) -> [UInt8]? {
    guard !text.contains(where: { "+/=".contains($0) }) else { return nil }
    var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
    standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
    return Data(base64Encoded: standard).map { [UInt8]($0) }
  }
}
