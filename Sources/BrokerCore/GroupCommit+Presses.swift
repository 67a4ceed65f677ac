import BrokerDomain
import TenFootProtocol
import TenFootStore

/// Press ids (`Input.press_id`) on a store that deduplicates them (a zone's PostgreSQL store):
/// a press whose id was applied already, by this broker or before a takeover, is acknowledged
/// with the session's focus as it is and not applied again; a new one is recorded in the same
/// transaction as what it changed. Other stores ignore press ids.
extension GroupCommit {
  /// The acknowledgement of `envelope` if it is a press this zone applied already.
  func duplicatePress(_ envelope: Tenfoot_V1_Envelope, domain: BrokerDomain)
    -> WireBroker.Outcome?
  {
    guard case .input(let input) = envelope.body, !input.pressID.isEmpty,
      let store = persistence.store as? PressDeduplicating,
      store.hasApplied(press: input.pressID)
    else { return nil }
    var ack = Tenfoot_V1_Ack()
    if let screen = Self.screen(touchedBy: envelope, sessions: domain.sessions),
      let session = domain.sessions[screen]
    {
      ack.screenID = screen
      ack.stateSeq = session.seq
      if let focused = session.focus.focused { ack.focused = focused }
    }
    return WireBroker.Outcome(reply: .ack(ack))
  }

  /// Notes that `envelope`'s press was applied (its reply is not an error): recorded with the
  /// next commit.
  func notePress(_ envelope: Tenfoot_V1_Envelope, reply: Tenfoot_V1_Envelope.OneOf_Body) {
    guard case .input(let input) = envelope.body, !input.pressID.isEmpty,
      let store = persistence.store as? PressDeduplicating
    else { return }
    if case .error = reply { return }
    store.willApply(press: input.pressID)
  }
}
