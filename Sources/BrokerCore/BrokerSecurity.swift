import TenFootSecurity
import ZeroMQ

/// CURVE settings for a broker whose endpoints cross the network.
public struct BrokerSecurity: Sendable {
  /// The broker's long-term key pair (from `KeyFile`).
  public var keyPair: CurveKeyPair
  /// The allow-list file.
  public var allowListPath: String
  /// Opens the allow-list in place of `allowListPath`'s file (a zone's PostgreSQL store);
  /// called on the broker's thread, which then owns it.
  public var allowList: (@Sendable () throws -> any AllowListSource)?
  /// Endpoints of the pairing socket (plain ZeroMQ; answers only pairing messages).
  public var pairingEndpoints: [String]
  /// How long a pairing PIN stays valid, in seconds.
  public var pairingLifetimeSeconds: UInt64 = 120

  /// Settings with the given key pair, allow-list file and pairing endpoints.
  public init(keyPair: CurveKeyPair, allowListPath: String, pairingEndpoints: [String]) {
    self.keyPair = keyPair
    self.allowListPath = allowListPath
    self.pairingEndpoints = pairingEndpoints
  }
}
