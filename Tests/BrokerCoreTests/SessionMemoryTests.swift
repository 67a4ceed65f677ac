import BrokerDomain
import FocusEngine
import Foundation
import Logging
import TenFootStore
import TestSupport
import Testing

@testable import BrokerCore

/// The session store keeps what the domain asks to persist, across a restart.
@Suite("Session records in the store")
struct SessionMemoryTests {
  @Test("records are written, reloaded and handed to the domain as they were")
  func memoryRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let memory = FocusMemory(lastFocused: ["top": "r0c1", "bottom": "r1c1"])
    let record = SessionRecord(
      screen: "main", focused: "r1c1", selected: ["r0c2"], text: ["search": "abc"],
      memory: memory)
    let first = SessionPersistence(
      store: try SessionStore(directory: directory.path, logger: Logger(label: "test")))
    #expect(first.records.isEmpty)
    try first.store.commit([SessionPersistence.row(record)])
    first.store.close()

    // A restarted broker: a new store on the same directory, the same values.
    let reloaded = SessionPersistence(
      store: try SessionStore(directory: directory.path, logger: Logger(label: "test")))
    #expect(reloaded.records == ["main": record])
  }
}
