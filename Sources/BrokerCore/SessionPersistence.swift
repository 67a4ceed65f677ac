import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TenFootSecurity

/// Keeps `SessionRecords` in step with the broker's sessions: written (atomically, fsync'd)
/// after a request changes a screen's focus, selections or text values and before it is
/// acknowledged, and
/// applied to a screen's layout when it registers a session the broker does not have yet (a
/// restart), so focus and selections come back.
final class SessionPersistence {
  private let path: String
  private let logger: Logger
  private var records: SessionRecords
  /// Files written, for logs and tests.
  private(set) var writes = 0

  /// Loads the records at `path`; an unreadable file is set aside (renamed `.corrupt`) and the
  /// broker starts empty rather than not at all.
  init(path: String, logger: Logger) {
    self.path = path
    self.logger = logger
    do {
      records = try SessionRecords.load(path)
      logger.info(
        "session records loaded",
        metadata: ["file": "\(path)", "screens": "\(records.screens.count)"])
    } catch {
      logger.error(
        "session records unreadable; starting empty",
        metadata: ["file": "\(path)", "error": "\(error)"])
      rename(path, path + ".corrupt")
      records = SessionRecords()
    }
  }

  /// The request a new session's registration should really make: the layout with the
  /// remembered selections and, if still focusable, the remembered focus.
  func restoring(_ request: Tenfoot_V1_RegisterScreen) -> Tenfoot_V1_RegisterScreen {
    guard let record = records.screens[request.screenID] else { return request }
    var restored = request
    let selected = Set(record.selected)
    let text = record.text ?? [:]
    for index in restored.layout.items.indices {
      let id = restored.layout.items[index].id
      restored.layout.items[index].selected = selected.contains(id)
      if let value = text[id] { restored.layout.items[index].value = value }
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
    guard let record = records.screens[screenID],
      record.remembered != nil || record.rememberedOwn != nil
    else { return nil }
    return FocusMemory(
      lastFocused: record.remembered ?? [:], lastFocusedOwn: record.rememberedOwn ?? [:])
  }

  /// Records `session`'s state; writes the file if it changed. Returns false if the write
  /// failed (the caller then does not acknowledge durability it cannot give).
  func record(_ session: ScreenSession) -> Bool {
    let memory = session.focus.memory
    let record = SessionRecords.Screen(
      focused: session.focus.focused, selected: session.focus.selected.sorted(),
      text: session.focus.textValues.isEmpty ? nil : session.focus.textValues,
      remembered: memory.lastFocused.isEmpty ? nil : memory.lastFocused,
      rememberedOwn: memory.lastFocusedOwn.isEmpty ? nil : memory.lastFocusedOwn)
    guard records.screens[session.id] != record else { return true }
    records.screens[session.id] = record
    do {
      try records.save(path)
      writes += 1
      return true
    } catch {
      logger.error(
        "cannot save session records", metadata: ["file": "\(path)", "error": "\(error)"])
      return false
    }
  }
}
