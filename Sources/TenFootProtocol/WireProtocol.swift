/// Facts about the wire protocol shared by every peer.
public enum WireProtocol {
  /// The protocol version this build speaks (`Envelope.protocol_version`).
  public static let version: UInt32 = 1
  /// The PUB topic of a screen session's state stream.
  public static func stateTopic(screen: String) -> String { "screen/\(screen)" }
  /// The PUB topic of the broker's heartbeat.
  public static let heartbeatTopic = "broker"
  /// The largest control message a broker accepts by default (a 100,000-item layout fits).
  public static let defaultMaxMessageSize: Int64 = 16 << 20
}
