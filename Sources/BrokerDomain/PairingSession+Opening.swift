extension PairingSession {
  /// The request's kind as the wire names it, for refusals and logs.
  public static let openAtScreenName = "open_pairing"

  /// Someone at `screen` opens pairing again (`tenfoot-screen pairing open`, sent with the
  /// screen's own key) after too many wrong PINs closed it, for when the broker runs on
  /// another host than the operator. Only a screen key that owns `screen` (`owners`: screen id
  /// → the hex key of its owner, from the allow-list) may, and only while `screen` is
  /// registered (`registered`: the broker's sessions); a local peer (no CURVE identity) may
  /// too, as the operator. A remote or app key is refused and nothing changes.
  ///
  /// It keeps the per-address counts (`PairingGuard.openedAtScreen`): a guesser's address
  /// stays refused, and only the operator's `tenfoot-broker pairing open` clears everything.
  /// If pairing was closed, the guard is saved and the screens' closed notice withdrawn; if it
  /// was open, nothing changes.
  public mutating func openAtScreen(
    _ screen: String, by principal: Principal, owners: [String: String], registered: [String]
  ) -> Outcome {
    func refuse(_ reason: AccessRefusal.Reason) -> Outcome {
      Outcome(
        reply: .refused(
          .forbidden(
            AccessRefusal(
              peer: principal.id, role: principal.role, request: Self.openAtScreenName,
              screen: screen, reason: reason))))
    }
    switch principal.role {
    case .local: break
    case .screen:
      let owner = owners[screen]
      guard owner == principal.key else {
        return refuse(owner == nil ? .notBound : .ownedByAnother)
      }
    case .remote, .app: return refuse(.role)
    }
    guard registered.contains(screen) else {
      return Outcome(reply: .refused(.unknownScreen(screen, known: registered.sorted())))
    }
    let wasClosed = guardState.closed
    guard wasClosed else { return Outcome(reply: .opened(screen: screen, wasClosed: false)) }
    guardState = guardState.openedAtScreen
    closedAnnounced = nil
    return Outcome(
      reply: .opened(screen: screen, wasClosed: true),
      effects: [.saveGuard(guardState), .announceClosed(false)])
  }

  /// Takes the guard someone else saved (the operator's `tenfoot-broker pairing open`, read
  /// from its file) at `now`: the screens are told when that opened or closed pairing.
  public mutating func adopt(_ saved: PairingGuard, at now: BrokerInstant) -> [PairingEffect] {
    let wasClosed = guardState.closed
    guardState = saved
    guard saved.closed != wasClosed else { return [] }
    if saved.closed {
      pending = nil
      closedAnnounced = now
    } else {
      closedAnnounced = nil
    }
    return [.announceClosed(saved.closed)]
  }
}
