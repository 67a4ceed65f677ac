import BrokerDomain
import TenFootProtocol
import TenFootStore

/// Press ids (`Input.press_id`) on a store that deduplicates them (a zone's PostgreSQL store),
/// at the wire edge: reads an input's press id and what the store knows of it for the domain,
/// which applies the press at most once (`BrokerDomain.handle(_:press:from:owners:at:)`), and
/// hands the store the ids the domain applied, recorded in the same transaction as what they
/// changed. Other stores ignore press ids (the ledger is nil).
struct PressLedger {
  /// The store that records applied press ids.
  let store: any PressDeduplicating

  /// The ledger of `store`, nil if it does not deduplicate press ids.
  init?(_ store: any DurableSessionStore) {
    guard let store = store as? any PressDeduplicating else { return nil }
    self.store = store
  }

  /// `envelope`'s press id and whether the store applied it already (by this broker, earlier
  /// in the same batch, or before a takeover); nil if it carries none.
  func press(in envelope: Tenfoot_V1_Envelope) -> Press? {
    guard case .input(let input) = envelope.body else { return nil }
    return press(id: input.pressID)
  }

  /// The press id `id` (an input's, empty for none) and whether the store applied it already.
  func press(id: String) -> Press? {
    guard !id.isEmpty else { return nil }
    return Press(id: id, applied: store.hasApplied(press: id))
  }

  /// Records the press id the domain applied with the next commit: a repeat from now on.
  func record(_ id: String?) {
    if let id { store.willApply(press: id) }
  }
}
