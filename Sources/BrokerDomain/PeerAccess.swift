/// Who sent a control message, from the `User-Id` the ZAP handler gave its connection.
public enum PeerAccess: Sendable, Equatable {
  /// No ZAP identity: a local ipc:// peer (the runtime directory is private) or an explicitly
  /// --insecure TCP peer.
  case local
  /// An allow-listed CURVE peer with its whole key in hex; checked against the current
  /// allow-list on every message, so a revoked peer is refused at once even on an open
  /// connection.
  case peer(id: String)

  /// The ZAP `User-Id` prefix of allow-listed peers.
  public static let peerPrefix = "peer:"

  /// Parses a `User-Id` (nil or empty: no ZAP).
  public init(userID: String?) {
    guard let userID, !userID.isEmpty else {
      self = .local
      return
    }
    self = .peer(id: userID.hasPrefix(Self.peerPrefix) ? String(userID.dropFirst(5)) : userID)
  }

  /// The `User-Id` for this access.
  public var userID: String {
    switch self {
    case .local: ""
    case .peer(let id): Self.peerPrefix + id
    }
  }
}
