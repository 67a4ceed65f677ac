import TenFootSecurity
import ZeroMQ

/// A remote's or screen's identity and trust, in its own state directory: its key pair
/// (`key.json`, 0600) and the broker keys it pinned (`brokers.json`, trust on first use).
public struct ClientTrust {
  /// The state directory.
  public let directory: String
  /// This program's key pair.
  public let keyPair: CurveKeyPair

  /// Loads (or creates) the key pair in `directory`.
  public init(directory: String) throws(StoreError) {
    self.directory = directory
    keyPair = try KeyFile.loadOrCreate(directory + "/key.json")
  }

  /// An identity with `keyPair` held only in memory (a phone remote's session key); pins
  /// would go to `directory`.
  public init(directory: String, keyPair: CurveKeyPair) {
    self.directory = directory
    self.keyPair = keyPair
  }

  private var brokersPath: String { directory + "/brokers.json" }

  /// The key pinned for the broker at `controlEndpoint`, if any.
  public func pinnedKey(for controlEndpoint: String) throws(StoreError) -> String? {
    try KnownBrokers.load(brokersPath).brokers[controlEndpoint]
  }

  /// Pins `curve`'s broker key for `controlEndpoint` after a CURVE handshake with it
  /// succeeded (the broker proved it holds the key); does nothing if it is pinned already.
  public func pinAfterHandshake(_ curve: ClientCurve, for controlEndpoint: String)
    throws(TrustError)
  {
    let pinned: String?
    do {
      pinned = try pinnedKey(for: controlEndpoint)
    } catch {
      throw .store(error)
    }
    guard pinned != curve.brokerKey else { return }
    try pin(curve.brokerKey, for: controlEndpoint, replace: false)
  }

  /// Pins `key` for `controlEndpoint`. Refuses a different key than the one pinned unless
  /// `replace` is set.
  public func pin(_ key: String, for controlEndpoint: String, replace: Bool) throws(TrustError) {
    var known: KnownBrokers
    do {
      known = try KnownBrokers.load(brokersPath)
    } catch {
      throw .store(error)
    }
    if let pinned = known.brokers[controlEndpoint], pinned != key, !replace {
      throw TrustError.keyChanged(endpoint: controlEndpoint, pinned: pinned, presented: key)
    }
    known.brokers[controlEndpoint] = key
    do {
      try known.save(brokersPath)
    } catch {
      throw .store(error)
    }
  }

  /// CURVE settings for talking to the broker at `controlEndpoint`: an explicit `brokerKey`
  /// (refused if it differs from the pin; pinned by `pinAfterHandshake` only once a broker
  /// proved it holds it, so a typo'd endpoint never gets a pin), else the pinned key.
  public func curve(for controlEndpoint: String, brokerKey: String?) throws(TrustError)
    -> ClientCurve
  {
    let pinned: String?
    do {
      pinned = try pinnedKey(for: controlEndpoint)
    } catch {
      throw .store(error)
    }
    if let brokerKey {
      guard Z85.decode(brokerKey)?.count == 32 else {
        throw .invalidBrokerKey(brokerKey)
      }
      if let pinned, pinned != brokerKey {
        throw TrustError.keyChanged(endpoint: controlEndpoint, pinned: pinned, presented: brokerKey)
      }
      return ClientCurve(keyPair: keyPair, brokerKey: brokerKey)
    }
    guard let pinned else {
      throw .notPaired(endpoint: controlEndpoint, directory: directory)
    }
    return ClientCurve(keyPair: keyPair, brokerKey: pinned)
  }
}

/// A trust problem, with its cause; `description` says what is wrong and what to do.
public enum TrustError: Error, CustomStringConvertible {
  /// The broker presents a different key than the one pinned on first pairing.
  case keyChanged(endpoint: String, pinned: String, presented: String)
  /// No broker key is pinned for the endpoint in the state directory.
  case notPaired(endpoint: String, directory: String)
  /// `--broker-key` is not a 40-character Z85 CURVE public key.
  case invalidBrokerKey(String)
  /// The key or pin file could not be read or written.
  case store(StoreError)

  /// What is wrong and what to do.
  public var description: String {
    switch self {
    case .keyChanged(let endpoint, let pinned, let presented):
      "the broker at \(endpoint) presents a different key (\(AllowList.id(of: presented))) than "
        + "the one pinned on first pairing (\(AllowList.id(of: pinned))): refusing it. If the "
        + "broker was reinstalled, pair again with --forget-broker; otherwise something may be "
        + "impersonating it"
    case .notPaired(let endpoint, let directory):
      "not paired: run tenfoot-remote pair (no broker key is pinned for \(endpoint) in "
        + "\(directory))"
    case .invalidBrokerKey: "--broker-key must be a 40-character Z85 CURVE public key"
    case .store(let error): error.description
    }
  }
}
