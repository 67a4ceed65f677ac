import FocusEngine
import Logging
import TenFootProtocol
import TenFootStore

/// Maps the broker's sessions to the store's plain `SessionRecord`s and back: what a session
/// records (focus, selections, text values, the groups' remembered items), and how a screen
/// that registers a session the broker does not have yet (a restart) gets them back.
final class SessionPersistence {
  /// The durable store.
  let store: SessionStore
  private let logger: Logger

  /// Wraps an open store.
  init(store: SessionStore, logger: Logger) {
    self.store = store
    self.logger = logger
  }

  /// The request a new session's registration should really make: the layout with the
  /// remembered selections and text and, if still focusable, the remembered focus.
  func restoring(_ request: Tenfoot_V1_RegisterScreen) -> Tenfoot_V1_RegisterScreen {
    guard let record = store.record(for: request.screenID) else { return request }
    var restored = request
    let selected = Set(record.selected)
    for index in restored.layout.items.indices {
      let id = restored.layout.items[index].id
      restored.layout.items[index].selected = selected.contains(id)
      if let value = record.text[id] { restored.layout.items[index].value = value }
    }
    if let focused = record.focused,
      restored.layout.items.contains(where: { $0.id == focused && !$0.unavailable })
    {
      restored.layout.initialFocus = focused
    }
    logger.info(
      "restoring session",
      metadata: ["screen": "\(request.screenID)", "focused": "\(record.focused ?? "none")"])
    return restored
  }

  /// The groups' remembered items recorded for a screen, if any.
  func memory(for screenID: String) -> FocusMemory? {
    guard let record = store.record(for: screenID),
      !record.remembered.isEmpty || !record.rememberedOwn.isEmpty
    else { return nil }
    return FocusMemory(lastFocused: record.remembered, lastFocusedOwn: record.rememberedOwn)
  }

  /// What `session` records now.
  static func record(of session: ScreenSession) -> SessionRecord {
    let memory = session.focus.memory
    return SessionRecord(
      screenID: session.id, focused: session.focus.focused,
      selected: Array(session.focus.selected), text: session.focus.textValues,
      remembered: memory.lastFocused, rememberedOwn: memory.lastFocusedOwn)
  }
}
