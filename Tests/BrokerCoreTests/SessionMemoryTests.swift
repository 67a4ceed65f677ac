import FocusEngine
import Logging
import TenFootProtocol
import TestSupport
import Testing

@testable import BrokerCore

/// Group memory survives a broker restart through the session records.
@Suite("Session records keep the groups' memory")
struct SessionMemoryTests {
  @Test("remembered items are recorded, reloaded and seeded into a new session")
  func memoryRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/sessions.json"
    var layout = TestLayouts.grid(rows: 2, columns: 3)
    layout.groups = [
      Group(id: "top", items: ["r0c0", "r0c1", "r0c2"], remembersLastFocused: true),
      Group(id: "bottom", items: ["r1c0", "r1c1", "r1c2"], remembersLastFocused: true),
    ]
    var state = BrokerState(epoch: 1, name: "test")
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "main"
    register.layout = Tenfoot_V1_Layout(layout)
    _ = state.handle(
      Tenfoot_V1_Envelope(
        sender: "s", seq: 1, sentAtNanoseconds: 0, body: .registerScreen(register)))
    var session = try #require(state.sessions["main"])
    reduce(&session.focus, .move(.right))  // top remembers r0c1
    reduce(&session.focus, .move(.down))  // bottom remembers r1c1
    let first = SessionPersistence(path: path, logger: Logger(label: "test"))
    #expect(first.record(session))

    // A restarted broker: new records object, new state, the screen registers again.
    let reloaded = SessionPersistence(path: path, logger: Logger(label: "test"))
    let memory = try #require(reloaded.memory(for: "main"))
    #expect(memory.lastFocused == ["top": "r0c1", "bottom": "r1c1"])
    var restarted = BrokerState(epoch: 2, name: "test")
    _ = restarted.handle(
      Tenfoot_V1_Envelope(
        sender: "s", seq: 1, sentAtNanoseconds: 0,
        body: .registerScreen(reloaded.restoring(register))))
    restarted.restoreMemory(memory, screen: "main")
    var restored = try #require(restarted.sessions["main"])
    #expect(restored.focus.focused == "r1c1")
    // Back up into the top row: its memory (r0c1) wins over geometry.
    reduce(&restored.focus, .move(.left))
    reduce(&restored.focus, .move(.up))
    #expect(restored.focus.focused == "r0c1")
  }
}
