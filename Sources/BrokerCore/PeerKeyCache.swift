import BrokerDomain

/// A CURVE peer's identity worked out once per run of its messages: the ZAP `User-Id` libzmq
/// gives every message of a connection is the same text each time, and a remote's presses
/// come in runs from one connection. Parsing it into a `PeerAccess` (twice, 1,220 instructions
/// each) and building its budget's name cost about 3,200 instructions a message (callgrind, the
/// CURVE in-memory broker); a repeat now costs one string comparison.
///
/// Owned by the loop thread (the broker's `admit` and `controlReadable`).
struct PeerKeyCache {
  /// The `User-Id` the other fields are for (nil: none yet).
  private(set) var userID: String?
  /// `PeerAccess(userID: userID)`.
  private(set) var access = PeerAccess.local
  /// The flood-control budget's name for `userID`: a zero byte, then its UTF-8 (see
  /// `Broker.admit`).
  private(set) var budget: [UInt8] = []

  /// Makes the fields those of `userID` (nothing to do when they are already).
  mutating func use(_ userID: String) {
    guard userID != self.userID else { return }
    self.userID = userID
    access = PeerAccess(userID: userID)
    budget = [0] + Array(userID.utf8)
  }

  /// The access a message with `userID` comes with (nil: a peer without ZAP, `.local`).
  mutating func access(for userID: String?) -> PeerAccess {
    guard let userID else { return .local }
    use(userID)
    return access
  }
}
