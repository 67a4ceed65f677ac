/// A broker found on the network: the DNS-SD instance name, the address it resolved to and
/// its checked announcement.
public struct DiscoveredBroker: Sendable, Equatable {
  /// The DNS-SD instance name (checked like the TXT name).
  public var instance: String
  /// The IPv4 address, dotted (from the resolver, never from the TXT record).
  public var address: String
  /// The checked TXT record.
  public var announcement: BrokerAnnouncement

  /// A discovered broker.
  public init(instance: String, address: String, announcement: BrokerAnnouncement) {
    self.instance = instance
    self.address = address
    self.announcement = announcement
  }

  /// The endpoints to reach it over TCP (the pairing endpoint is the announced port, not the
  /// control port + 2).
  public var endpoints: Endpoints {
    var endpoints = Endpoints(
      control: "tcp://\(address):\(announcement.controlPort)",
      state: "tcp://\(address):\(announcement.statePort)")
    endpoints.pairing = "tcp://\(address):\(announcement.pairingPort)"
    return endpoints
  }

  /// Whether `name` names this broker (its instance name or announced name, exactly).
  public func isNamed(_ name: String) -> Bool {
    instance == name || announcement.name == name
  }

  /// How this broker's announced fingerprint compares with the key a client pinned for its
  /// control endpoint (`pinnedID`: that key's short id, or nil when none is pinned).
  public func trust(pinnedID: String?) -> DiscoveredTrust {
    guard let pinnedID else { return .notPaired }
    return pinnedID == announcement.fingerprint ? .paired : .mismatch(pinned: pinnedID)
  }

  /// The one broker named `name` among `answers` a client may connect to. `pinnedID` gives
  /// the short id of the key pinned for a control endpoint, if any. Discovery supplies the
  /// address only: an answer whose fingerprint differs from the pinned key is never chosen
  /// (a forged answer cannot redirect a paired client), a paired answer wins over unpaired
  /// ones, and two different unpaired brokers of that name are refused as ambiguous (one may
  /// be an impostor; give the endpoints instead).
  public static func choose(
    named name: String, among answers: [DiscoveredBroker], pinnedID: (String) -> String?
  ) throws(DiscoveryError) -> DiscoveredBroker {
    let named = answers.filter { $0.isNamed(name) }
    guard !named.isEmpty else {
      throw .notFound(name: name, seen: Array(Set(answers.map(\.instance))).sorted())
    }
    var paired: [DiscoveredBroker] = []
    var unpaired: [DiscoveredBroker] = []
    var mismatched: [(DiscoveredBroker, String)] = []
    for answer in named {
      switch answer.trust(pinnedID: pinnedID(answer.endpoints.control)) {
      case .paired: paired.append(answer)
      case .notPaired: unpaired.append(answer)
      case .mismatch(let pinned): mismatched.append((answer, pinned))
      }
    }
    if let first = paired.first { return first }
    let distinct = Set(unpaired.map { $0.endpoints.control })
    if distinct.count > 1 {
      throw .ambiguous(name: name, endpoints: distinct.sorted())
    }
    if let first = unpaired.first { return first }
    let (answer, pinned) = mismatched[0]
    throw .fingerprintMismatch(
      name: name, endpoint: answer.endpoints.control,
      announced: answer.announcement.fingerprint, pinned: pinned)
  }
}

/// A discovered broker's announced fingerprint against this client's pin.
public enum DiscoveredTrust: Sendable, Equatable {
  /// A key is pinned for its endpoint and the fingerprint matches it.
  case paired
  /// No key is pinned for its endpoint.
  case notPaired
  /// A key is pinned and the announced fingerprint is another one (`pinned`: the pin's id).
  case mismatch(pinned: String)
}

/// Why discovery could not give a broker, with its cause; `description` says what to do.
public enum DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The Avahi daemon (or the D-Bus system bus it answers on) is not running.
  case daemonUnavailable(reason: String)
  /// Avahi refused a request (`reason`: its message).
  case avahi(operation: String, reason: String)
  /// No valid broker of that name answered within the wait (`seen`: the names that did).
  case notFound(name: String, seen: [String])
  /// More than one unpaired broker has that name.
  case ambiguous(name: String, endpoints: [String])
  /// The only answers for the name announce another key than the one pinned.
  case fingerprintMismatch(name: String, endpoint: String, announced: String, pinned: String)

  /// What is wrong and what to do.
  public var description: String {
    switch self {
    case .daemonUnavailable(let reason):
      "cannot discover brokers: the Avahi daemon is not running (\(reason)). Start "
        + "avahi-daemon, or give the broker's endpoints with --control and --state"
    case .avahi(let operation, let reason): "Avahi could not \(operation): \(reason)"
    case .notFound(let name, let seen):
      "no broker named \"\(name)\" answered on the local network"
        + (seen.isEmpty ? "" : " (found: \(seen.map { "\"\($0)\"" }.joined(separator: ", ")))")
        + "; check the name with 'tenfoot-remote scan', or give --control and --state"
    case .ambiguous(let name, let endpoints):
      "more than one unpaired broker is named \"\(name)\" (\(endpoints.joined(separator: ", "))): "
        + "refusing to guess, as one may be an impostor; give --control and --state"
    case .fingerprintMismatch(let name, let endpoint, let announced, let pinned):
      "the broker named \"\(name)\" at \(endpoint) announces key \(announced), not the key "
        + "\(pinned) this program paired with: refusing it (something may be impersonating it; "
        + "if the broker was reinstalled, pair again with --forget-broker)"
    }
  }
}
