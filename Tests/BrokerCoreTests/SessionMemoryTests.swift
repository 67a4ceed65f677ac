import BrokerDomain
import FocusEngine
import Foundation
import Logging
import TestSupport
import Testing

@testable import BrokerCore

/// The session records file keeps what the domain asks to persist, across a restart.
@Suite("Session records file")
struct SessionMemoryTests {
  @Test("records are written, reloaded and restored into a screen registering anew")
  func memoryRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/sessions.json"
    let memory = FocusMemory(lastFocused: ["top": "r0c1", "bottom": "r1c1"])
    let record = SessionRecord(
      screen: "main", focused: "r1c1", selected: ["r0c2"], text: ["search": "abc"],
      memory: memory)
    let first = SessionPersistence(path: path, logger: Logger(label: "test"))
    #expect(first.records.isEmpty)
    #expect(first.record(record))
    #expect(first.writes == 1)
    #expect(first.record(record) && first.writes == 1, "an unchanged record is not written")

    // A restarted broker: new records object, the same values.
    let reloaded = SessionPersistence(path: path, logger: Logger(label: "test"))
    #expect(reloaded.records == ["main": record])
  }

  @Test("an unreadable file is set aside and the broker starts empty")
  func corrupt() throws {
    let directory = try TemporaryDirectory()
    let path = try directory.write("sessions.json", "{ torn")
    let persistence = SessionPersistence(path: path, logger: Logger(label: "test"))
    #expect(persistence.records.isEmpty)
    #expect(FileManager.default.fileExists(atPath: path + ".corrupt"))
  }

  @Test("a record that cannot be written is reported, and not kept as written")
  func failedWrite() throws {
    let directory = try TemporaryDirectory()
    let persistence = SessionPersistence(
      path: directory.path + "/missing/sessions.json", logger: Logger(label: "test"))
    let record = SessionRecord(screen: "main", focused: "a", selected: [])
    #expect(!persistence.record(record))
    #expect(persistence.records.isEmpty)
  }
}
