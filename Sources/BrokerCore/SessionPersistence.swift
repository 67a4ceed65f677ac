import BrokerDomain
import FocusEngine
import Logging
import TenFootStore

/// Maps the domain's `SessionRecord`s to the store's rows and back: the records loaded at
/// start (the domain restores a screen's focus, selections, text values and group memory from
/// them when it registers again), and the rows a group commit writes.
final class SessionPersistence {
  /// The durable store (SQLite, or a zone's PostgreSQL store).
  let store: any DurableSessionStore

  /// Wraps an open store.
  init(store: any DurableSessionStore) {
    self.store = store
  }

  /// The durable records, as the domain's values.
  var records: [String: SessionRecord] {
    store.records.mapValues { row in
      SessionRecord(
        screen: row.screenID, focused: row.focused, selected: row.selected, text: row.text,
        memory: FocusMemory(lastFocused: row.remembered, lastFocusedOwn: row.rememberedOwn))
    }
  }

  /// The store's row for a domain record.
  static func row(_ record: SessionRecord) -> SessionRow {
    SessionRow(
      screenID: record.screen, focused: record.focused, selected: record.selected,
      text: record.text, remembered: record.memory.lastFocused,
      rememberedOwn: record.memory.lastFocusedOwn)
  }
}
