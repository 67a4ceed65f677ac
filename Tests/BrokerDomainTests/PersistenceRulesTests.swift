import BrokerDomain
import FocusEngine
import Testing

/// What the domain asks a store to keep, and what it restores from it.
@Suite("Domain: persist effects and restored sessions")
struct PersistenceRulesTests {
  @Test("without records nothing is persisted")
  func inMemory() {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 3))
    #expect(harness.key(.right).records.isEmpty)
    #expect(!harness.domain.persists)
  }

  @Test("each acknowledged change of durable values is persisted first, once")
  func persistFirst() {
    var harness = Harness(records: [:])
    let registered = harness.register(Grid.layout(rows: 1, columns: 3))
    #expect(
      registered.records == [SessionRecord(screen: "main", focused: "r0c0", selected: [])])
    guard case .persist = registered.effects.first else {
      Issue.record("persist does not come first: \(registered.effects)")
      return
    }
    let moved = harness.key(.right)
    #expect(moved.records == [SessionRecord(screen: "main", focused: "r0c1", selected: [])])
    // The release of a press changes nothing durable: nothing to persist.
    #expect(harness.key(.right, .up).records.isEmpty)
    #expect(harness.send(.heartbeat(screen: "main")).records.isEmpty)
    // A refusal persists nothing.
    #expect(harness.key(.right, screen: "nope").effects.isEmpty)
  }

  @Test("a select toggles a selection, which is persisted")
  func selection() {
    var harness = Harness(records: [:])
    harness.register(Grid.layout(rows: 1, columns: 3))
    _ = harness.key(.select, .down, time: 1_000_000_000)
    let up = harness.key(.select, .up, time: 1_040_000_000)
    #expect(up.records.map(\.selected) == [["r0c0"]])
  }

  @Test("a screen registering anew gets its record back: selections, focus and group memory")
  func restore() throws {
    let memory = FocusMemory(lastFocused: ["top": "r0c1", "bottom": "r1c1"])
    let record = SessionRecord(
      screen: "main", focused: "r1c1", selected: ["r0c2"], text: [:], memory: memory)
    var harness = Harness(records: ["main": record])
    let registered = harness.register(Grid.twoRows(remember: true))
    #expect(registered.ack?.focused == "r1c1")
    // What the store gets back: the restored values (plus what focusing r1c1 taught the group).
    #expect(registered.records.map(\.focused) == ["r1c1"])
    #expect(registered.records.map(\.selected) == [["r0c2"]])
    #expect(registered.records.first?.memory.lastFocused == memory.lastFocused)
    var session = try #require(harness.domain.sessions["main"])
    #expect(session.focus.selected == ["r0c2"])
    // Back up into the top row: its memory (r0c1) wins over geometry.
    reduce(&session.focus, .move(.left))
    reduce(&session.focus, .move(.up))
    #expect(session.focus.focused == "r0c1")
  }

  @Test("a remembered focus that is gone or unavailable is not restored")
  func staleFocus() {
    var layout = Grid.layout(rows: 1, columns: 3)
    layout.items[2].available = false
    let records = [
      "a": SessionRecord(screen: "a", focused: "r0c2", selected: []),
      "b": SessionRecord(screen: "b", focused: "ghost", selected: []),
    ]
    var harness = Harness(records: records)
    #expect(harness.register(layout, screen: "a").ack?.focused == "r0c0")
    #expect(harness.register(layout, screen: "b").ack?.focused == "r0c0")
  }

  @Test(
    "restored text is the session's, not the layout's declared value: registering again keeps it")
  func restoredText() throws {
    var layout = Grid.layout(rows: 1, columns: 3)
    layout.items[1].kind = .textField
    let record = SessionRecord(
      screen: "main", focused: "r0c1", selected: [], text: ["r0c1": "typed"])
    var harness = Harness(records: ["main": record])
    harness.register(layout)
    var session = try #require(harness.domain.sessions["main"])
    #expect(session.focus.textValues == ["r0c1": "typed"])
    #expect(session.focus.layout.items[1].value == "")
    // The screen registers the layout it declared again (a page reconnecting): no change.
    harness.register(layout)
    session = try #require(harness.domain.sessions["main"])
    #expect(session.focus.textValues == ["r0c1": "typed"])
    // A layout declaring a new value is the app's write.
    layout.items[1].value = "by script"
    harness.register(layout)
    session = try #require(harness.domain.sessions["main"])
    #expect(session.focus.textValues == ["r0c1": "by script"])
  }

  @Test("the domain is a value: a copy taken before a batch rolls the batch back")
  func rollback() {
    var harness = Harness(records: [:])
    harness.register(Grid.layout(rows: 1, columns: 3))
    let before = harness.domain
    for press in 0..<2 {
      let time = UInt64(press + 1) * 1_000_000_000
      _ = harness.key(.right, .down, time: time)
      _ = harness.key(.right, .up, time: time + 40_000_000)
    }
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c2")
    harness.domain = before
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c0")
    #expect(harness.domain.records["main"]?.focused == "r0c0")
    // The next change is persisted again (the rolled-back record is not taken as stored).
    #expect(harness.key(.right, time: 5_000_000_000).records.map(\.focused) == ["r0c1"])
  }
}
