import BrokerDomain
import Logging
import ZeroMQ

/// Quarantine of flooding keys (`PeerQuarantine`): the bytes a CURVE key sends over its budget
/// are counted; past the margin its connections are cut and the ZAP handler refuses it until
/// the quarantine ends, so libzmq's I/O thread no longer decrypts what it sends.
extension Broker {
  /// Whether the key with ZAP `User-Id` `key` is quarantined now (one emptiness check while no
  /// key is).
  func isQuarantined(_ key: String) -> Bool {
    guard let security, !security.quarantine.isEmpty, !key.isEmpty else { return false }
    return security.quarantine.isQuarantined(key, at: now())
  }

  /// A message over its peer's budget was read (refused, or dropped unread): counts its bytes
  /// against its key's margin, quarantines the key past it (one log line), and cuts the
  /// connection it came on while the key is quarantined (each connection once). Peers without a
  /// key (no CURVE) are throttled only: without ZAP nothing could refuse their reconnection.
  func overBudget(_ received: ReceivedWithUserID) {
    guard let security, let key = received.userID, !key.isEmpty else { return }
    let now = now()
    switch security.quarantine.overBudget(key, bytes: received.bytes, at: now) {
    case .tolerated:
      return
    case .quarantined(let until):
      let policy = security.quarantine.policy
      logger.warning(
        "peer quarantined: it kept sending over its budget; its connections are cut and refused",
        metadata: security.peer(key).merging(
          [
            "quarantine.seconds": "\(now.duration(to: until).wholeMillisecondsRoundedUp / 1000)",
            "quarantine.margin.kib": "\(Int(policy.margin) / 1024)",
          ], uniquingKeysWith: { first, _ in first }))
    case .alreadyQuarantined:
      break
    }
    guard let connection = received.frames.first, let source = received.source,
      security.quarantine.shouldCut(key, connection: connection, at: now)
    else { return }
    let cut = source.cut()
    logger.debug(
      "quarantined peer's connection cut",
      metadata: [
        "peer.user": "\(key)", "peer.address": "\(source.peerAddress)", "cut": "\(cut)",
      ])
  }
}
