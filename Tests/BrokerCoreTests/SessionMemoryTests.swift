import FocusEngine
import Logging
import TenFootProtocol
import TenFootStore
import TestSupport
import Testing

@testable import BrokerCore

/// Group memory survives a broker restart through the session store.
@Suite("Session records keep the groups' memory")
struct SessionMemoryTests {
  @Test("remembered items are recorded, reloaded and seeded into a new session")
  func memoryRoundTrip() throws {
    let directory = try TemporaryDirectory()
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
    let logger = Logger(label: "test")
    let first = try SessionStore(directory: directory.path, logger: logger)
    try first.commit([SessionPersistence.record(of: session)])
    first.close()

    // A restarted broker: a new store, new state, the screen registers again.
    let reloaded = SessionPersistence(
      store: try SessionStore(directory: directory.path, logger: logger), logger: logger)
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

/// Screens that stop answering: their sessions outlive a grace period, then go.
@Suite("Dead screens: grace period, then SCREEN_GONE")
struct DeadScreenTests {
  @Test("a session lives through the grace period, then input for it gets SCREEN_GONE")
  func grace() throws {
    var state = BrokerState(epoch: 1, name: "test")
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "tv"
    register.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 2))
    func send(_ body: Tenfoot_V1_Envelope.OneOf_Body) -> Tenfoot_V1_Envelope.OneOf_Body {
      state.handle(Tenfoot_V1_Envelope(sender: "t", seq: 1, sentAtNanoseconds: 0, body: body)).reply
    }
    func press() -> Tenfoot_V1_Envelope.OneOf_Body {
      var input = Tenfoot_V1_Input()
      input.screenID = "tv"
      input.key.key = .right
      input.key.phase = .down
      return send(.input(input))
    }
    let second: UInt64 = 1_000_000_000
    state.now = 10 * second
    _ = send(.registerScreen(register))
    state.now = 20 * second
    #expect(send(.heartbeat(.with { $0.screenID = "tv" })).isAck)
    state.now = 45 * second  // 25 s after the last heartbeat: still within 30 s
    #expect(state.expireScreens(grace: 30 * second).isEmpty)
    #expect(press().isAck)
    state.now = 51 * second  // 31 s after the last sign of life
    #expect(state.expireScreens(grace: 30 * second) == ["tv"])
    guard case .error(let error) = press() else {
      Issue.record("input for a dropped screen was accepted")
      return
    }
    #expect(error.code == .screenGone)
    #expect(error.message.contains("\"tv\""))
    // The screen comes back: registering again revives the session.
    #expect(send(.registerScreen(register)).isAck)
    #expect(press().isAck)
  }
}

extension Tenfoot_V1_Envelope.OneOf_Body {
  var isAck: Bool {
    if case .ack = self { return true }
    return false
  }
}
