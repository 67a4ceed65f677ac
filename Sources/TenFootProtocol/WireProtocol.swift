/// Facts about the wire protocol shared by every peer.
public enum WireProtocol {
  /// The protocol version this build speaks (`Envelope.protocol_version`).
  public static let version: UInt32 = 1
  /// The PUB topic of a screen session's state stream.
  public static func stateTopic(screen: String) -> String { "screen/\(screen)" }
  /// The PUB topic of the broker's heartbeat.
  public static let heartbeatTopic = "broker"
  /// The largest control message a broker accepts by default: one part of a larger message
  /// (`MessageParts`) fits, and libzmq decrypts it (on its one I/O thread, reading no other
  /// connection meanwhile) in a small fraction of a millisecond.
  public static let defaultMaxMessageSize: Int64 = 256 << 10
  /// The largest whole message, sent in parts, a broker accepts by default (a 100,000-item
  /// layout fits).
  public static let defaultMaxWholeMessageSize = 16 << 20
}
