import FocusEngine
import TenFootProtocol
import TestSupport
import Testing

@testable import BrokerCore

/// The engine's groups, programmatic focus, patches and debugger, reached through the
/// protocol over a real socket pair (inproc).
@Suite("Broker: Tab, focus requests, layout patches, debugger")
struct BrokerFocusFeaturesTests {
  typealias Harness = BrokerLoopTests.Harness

  /// Two rows as groups; the second is a modal-like trapping group when `trap` is set.
  static func twoRows(trap: Bool = false) -> Layout {
    var layout = TestLayouts.grid(rows: 2, columns: 3)
    layout.groups = [
      Group(id: "top", items: ["r0c0", "r0c1", "r0c2"]),
      Group(id: "bottom", items: ["r1c0", "r1c1", "r1c2"], trapsFocus: trap),
    ]
    return layout
  }

  @Test("Tab and Shift-Tab keys move between groups with headings next and previous")
  func tabKeys() throws {
    let harness = try Harness(transport: "inproc")
    _ = try harness.register(Self.twoRows())
    _ = try harness.key(.right, .down)
    let tab = try harness.key(.tab, .down)
    #expect(tab.ack.focused == "r1c0")
    #expect(tab.ack.effects.map(\.summary) == ["focus r0c1 → r1c0 (next)"])
    #expect(try harness.key(.tab, .up).ack.effects.isEmpty)
    let back = try harness.key(.shiftTab, .down)
    // The previously focused item of the top row has priority 1000.
    #expect(back.ack.focused == "r0c1")
    #expect(back.ack.effects.map(\.summary) == ["focus r1c0 → r0c1 (previous)"])
  }

  @Test("focus requests: success, and each refusal as its own error code")
  func focusRequests() throws {
    let harness = try Harness(transport: "inproc")
    _ = try harness.register(Self.twoRows(trap: true))
    func request(_ target: Tenfoot_V1_FocusRequest.OneOf_Target) throws -> Tenfoot_V1_Envelope {
      try harness.request(
        .focusRequest(
          .with {
            $0.screenID = "main"
            $0.target = target
          }))
    }
    let item = try request(.item("r0c2"))
    #expect(item.ack.focused == "r0c2")
    #expect(item.ack.effects.map(\.summary) == ["focus r0c0 → r0c2 (programmatic)"])
    #expect(try request(.item("ghost")).error.code == .unknownTarget)
    let group = try request(.group("bottom"))
    #expect(group.ack.focused == "r1c0")
    // Now inside the trapping group: the top row is out of reach.
    let trapped = try request(.item("r0c0"))
    #expect(trapped.error.code == .focusTrapped)
    #expect(trapped.error.message.contains("\"bottom\""))
    #expect(try request(.group("nope")).error.code == .unknownTarget)
    #expect(
      try harness.request(.focusRequest(.with { $0.screenID = "main" })).error.code
        == .invalidInput)
  }

  @Test("a patch that removes the focused item recovers focus and publishes a snapshot")
  func patches() throws {
    let harness = try Harness(transport: "inproc")
    try harness.waitUntilSubscribed()
    _ = try harness.register(Self.twoRows())
    _ = try harness.key(.right, .down)  // r0c1, by a directional move
    let patch = try harness.request(
      .patchLayout(
        .with {
          $0.screenID = "main"
          $0.operations = [
            Tenfoot_V1_PatchOperation(.removeItem("r0c1")),
            Tenfoot_V1_PatchOperation(.setItemAvailable("r1c1", false)),
          ]
        }))
    #expect(patch.ack.focused == "r0c0")
    #expect(patch.ack.effects.map(\.summary) == ["focus r0c1 → r0c0 (recovery)"])
    var published = try harness.nextPublished()
    while published.envelope.snapshot.layout.items.count != 5 {
      published = try harness.nextPublished()
    }
    #expect(published.envelope.snapshot.focused == "r0c0")
    #expect(published.envelope.snapshot.states.first { $0.id == "r1c1" }?.state == .unavailable)

    let bad = try harness.request(
      .patchLayout(
        .with {
          $0.screenID = "main"
          $0.operations = [Tenfoot_V1_PatchOperation(.removeItem("ghost"))]
        }))
    #expect(bad.error.code == .invalidLayout)
    #expect(bad.error.message == #"operations[0]: unknown item "ghost""#)
  }

  @Test("the debugger answers on a live session")
  func debugger() throws {
    let harness = try Harness(transport: "inproc")
    _ = try harness.register(Self.twoRows())
    func debug(_ query: Tenfoot_V1_DebugRequest.OneOf_Query) throws -> String {
      try harness.request(
        .debugRequest(
          .with {
            $0.screenID = "main"
            $0.query = query
          })
      ).debugReport.text
    }
    #expect(try debug(.tabLoop(true)) == "1. top → r0c0\n2. bottom → r1c0")
    #expect(try debug(.dryRun("down")).hasPrefix("focused: r1c0\nmoved: true"))
    #expect(try debug(.explainItem("r1c2")).contains("reachable from r0c0 with arrows"))
    #expect(
      try debug(.groupTree(true)) == "top: 3 item(s), primary r0c0\nbottom: 3 item(s), primary r1c0"
    )
    // The dry run changed nothing.
    #expect(
      try harness.key(.left, .down).ack.effects.map(\.summary) == ["bump left: no item that way"])
  }
}
