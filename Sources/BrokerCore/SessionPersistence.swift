import BrokerDomain
import FocusEngine
import Foundation
import Logging
import TenFootSecurity

/// Keeps the domain's `SessionRecord`s in a file (`SessionRecords`, atomic and fsync'd): each
/// record the domain asks to persist is written before its request is acknowledged, and the
/// records are loaded at start so the domain restores a screen's focus, selections, text
/// values and group memory when it registers again.
final class SessionPersistence {
  private let path: String
  private let logger: Logger
  private var file: SessionRecords
  /// Files written, for logs and tests.
  private(set) var writes = 0

  /// Loads the records at `path`; an unreadable file is set aside (renamed `.corrupt`) and the
  /// broker starts empty rather than not at all.
  init(path: String, logger: Logger) {
    self.path = path
    self.logger = logger
    do {
      file = try SessionRecords.load(path)
      logger.info(
        "session records loaded",
        metadata: ["file": "\(path)", "screens": "\(file.screens.count)"])
    } catch {
      logger.error(
        "session records unreadable; starting empty",
        metadata: ["file": "\(path)", "error": "\(error)"])
      rename(path, path + ".corrupt")
      file = SessionRecords()
    }
  }

  /// The records loaded, as the domain's values.
  var records: [String: SessionRecord] {
    var records: [String: SessionRecord] = [:]
    for (screen, saved) in file.screens {
      records[screen] = SessionRecord(
        screen: screen, focused: saved.focused, selected: saved.selected, text: saved.text ?? [:],
        memory: FocusMemory(
          lastFocused: saved.remembered ?? [:], lastFocusedOwn: saved.rememberedOwn ?? [:]))
    }
    return records
  }

  /// Writes `record` (with the others) if it changed. Returns false if the write failed: the
  /// caller then does not acknowledge durability it cannot give.
  func record(_ record: SessionRecord) -> Bool {
    let saved = SessionRecords.Screen(
      focused: record.focused, selected: record.selected,
      text: record.text.isEmpty ? nil : record.text,
      remembered: record.memory.lastFocused.isEmpty ? nil : record.memory.lastFocused,
      rememberedOwn: record.memory.lastFocusedOwn.isEmpty ? nil : record.memory.lastFocusedOwn)
    guard file.screens[record.screen] != saved else { return true }
    let before = file
    file.screens[record.screen] = saved
    do {
      try file.save(path)
      writes += 1
      return true
    } catch {
      file = before
      logger.error(
        "cannot save session records", metadata: ["file": "\(path)", "error": "\(error)"])
      return false
    }
  }
}
