import ZeroMQ

/// What a CURVE client needs: its own key pair and the broker's public key (Z85).
public struct ClientCurve: Sendable, Equatable {
  /// This program's key pair.
  public var keyPair: CurveKeyPair
  /// The broker's public key.
  public var brokerKey: String

  /// Creates settings.
  public init(keyPair: CurveKeyPair, brokerKey: String) {
    self.keyPair = keyPair
    self.brokerKey = brokerKey
  }
}
