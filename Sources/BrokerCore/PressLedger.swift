import BrokerDomain
import TenFootProtocol
import TenFootStore

/// Press ids (`Input.press_id`) on a store that deduplicates them (a zone's PostgreSQL store):
/// a press whose id was applied already, by this broker, earlier in the same group-commit
/// batch, or before a takeover, is acknowledged with the session's focus as it is and not
/// applied again; a new one is recorded in the same transaction as what it changed. Other
/// stores ignore press ids (the ledger is nil).
///
/// A duplicate's acknowledgement is held with its screen's other outputs, so when the batch's
/// commit fails it is refused (`STORE_UNAVAILABLE`) like the press it repeats.
struct PressLedger {
  /// The store that records applied press ids.
  let store: any PressDeduplicating

  /// The ledger of `store`, nil if it does not deduplicate press ids.
  init?(_ store: any DurableSessionStore) {
    guard let store = store as? any PressDeduplicating else { return nil }
    self.store = store
  }

  /// The acknowledgement of `envelope` if it is a press this zone applied already.
  func duplicate(of envelope: Tenfoot_V1_Envelope, domain: BrokerDomain) -> WireBroker.Outcome? {
    guard case .input(let input) = envelope.body, !input.pressID.isEmpty,
      store.hasApplied(press: input.pressID)
    else { return nil }
    var ack = Tenfoot_V1_Ack()
    if let screen = GroupCommit.screen(touchedBy: envelope, sessions: domain.sessions),
      let session = domain.sessions[screen]
    {
      ack.screenID = screen
      ack.stateSeq = session.seq
      if let focused = session.focus.focused { ack.focused = focused }
    }
    return WireBroker.Outcome(reply: .ack(ack))
  }

  /// Notes that `envelope`'s press was applied (its reply is not an error): recorded with the
  /// next commit, and a duplicate from now on.
  func applied(_ envelope: Tenfoot_V1_Envelope, reply: Tenfoot_V1_Envelope.OneOf_Body) {
    guard case .input(let input) = envelope.body, !input.pressID.isEmpty else { return }
    if case .error = reply { return }
    store.willApply(press: input.pressID)
  }
}
