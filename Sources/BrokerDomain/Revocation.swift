/// The revoke rules, pure: which peers the state socket admitted, and which of them a change
/// of the allow-list revoked. A PUB socket cannot refuse one subscriber and ZAP runs only when
/// a connection starts, so the runtime cuts the state socket's connections when `takeCut()`
/// names anyone (honest subscribers reconnect and pass ZAP again).
public struct Revocation: Sendable, Equatable {
  /// Ids admitted to the state socket since the start.
  public private(set) var subscribers: Set<String> = []
  /// Revoked ids that were admitted to the state socket, not yet cut off.
  public private(set) var pendingCut: Set<String> = []

  /// No subscribers yet.
  public init() {}

  /// ZAP admitted `access` to the state socket.
  public mutating func subscribed(_ access: PeerAccess) {
    if case .peer(let id) = access { subscribers.insert(id) }
  }

  /// The allow-list changed from `before` to `after` (ids); returns the ids removed.
  @discardableResult
  public mutating func allowListChanged(before: Set<String>, after: Set<String>) -> Set<String> {
    let removed = before.subtracting(after)
    pendingCut.formUnion(removed.intersection(subscribers))
    subscribers.subtract(removed)
    return removed
  }

  /// The revoked subscribers to cut off now (empty, cheaply, when there are none).
  public mutating func takeCut() -> Set<String> {
    guard !pendingCut.isEmpty else { return [] }
    defer { pendingCut.removeAll() }
    return pendingCut
  }
}
