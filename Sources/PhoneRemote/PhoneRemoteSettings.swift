import ZeroMQ

/// What the phone remote needs from the screen: where the broker is and how to reach it.
public struct PhoneRemoteSettings: Sendable {
  /// The ZeroMQ context the sessions' sockets are made in.
  public var context: Context
  /// The broker's control endpoint.
  public var controlEndpoint: String
  /// The broker's pairing endpoint.
  public var pairingEndpoint: String
  /// The broker's public key (Z85), the one this screen trusts.
  public var brokerKey: String
  /// The screen session the phones control.
  public var screenID: String
  /// The host name or address put in the QR code's URL (nil: the address the page listens
  /// on). A phone must be able to reach it.
  public var publicHost: String?
  /// How long one request to the broker may take.
  public var requestTimeout: Duration = .seconds(3)
  /// Where a session's trust would pin keys (never written: sessions pin nothing).
  public var stateDirectory: String

  /// Creates settings.
  public init(
    context: Context, controlEndpoint: String, pairingEndpoint: String, brokerKey: String,
    screenID: String, publicHost: String?, stateDirectory: String
  ) {
    self.context = context
    self.controlEndpoint = controlEndpoint
    self.pairingEndpoint = pairingEndpoint
    self.brokerKey = brokerKey
    self.screenID = screenID
    self.publicHost = publicHost
    self.stateDirectory = stateDirectory
  }
}
