import BrokerDomain
import FocusEngine
import Testing

/// The engine's groups, programmatic focus, patches and debugger, reached through the broker's
/// domain in memory (these used to need a socket pair).
@Suite("Domain: Tab, focus requests, layout patches, debugger")
struct FocusFeaturesTests {
  /// Each focus change's (previous, next, heading).
  static func moves(_ effects: [FocusEffect]) -> [String] {
    effects.compactMap { effect in
      guard case .focusChanged(let context) = effect else { return nil }
      return "\(context.previous ?? "-") → \(context.next ?? "-") (\(context.heading))"
    }
  }

  @Test("Tab and Shift-Tab keys move between groups with headings next and previous")
  func tabKeys() throws {
    var harness = Harness()
    harness.register(Grid.twoRows())
    _ = harness.key(.right)
    let tab = try #require(harness.key(.tab).ack)
    #expect(tab.focused == "r1c0")
    #expect(Self.moves(tab.effects) == ["r0c1 → r1c0 (next)"])
    #expect(harness.key(.tab, .up).ack?.effects == [])
    let back = try #require(harness.key(.shiftTab).ack)
    // The previously focused item of the top row has priority 1000.
    #expect(back.focused == "r0c1")
    #expect(Self.moves(back.effects) == ["r1c0 → r0c1 (previous)"])
  }

  @Test("focus requests: success, and each refusal with its reason and target")
  func focusRequests() throws {
    var harness = Harness()
    harness.register(Grid.twoRows(trap: true))
    func request(_ target: FocusTarget) -> BrokerDomain.Outcome {
      let cause = harness.cause()
      return harness.send(.focus(target, screen: "main", cause: cause))
    }
    let item = try #require(request(.item("r0c2")).ack)
    #expect(item.focused == "r0c2")
    #expect(Self.moves(item.effects) == ["r0c0 → r0c2 (programmatic)"])
    guard case .focusDenied(let unknown) = request(.item("ghost")).error else {
      Issue.record("a request for an unknown item was honoured")
      return
    }
    #expect(unknown.reason == .unknown && unknown.target == "ghost")
    #expect(request(.group("bottom")).ack?.focused == "r1c0")
    // Now inside the trapping group: the top row is out of reach.
    guard case .focusDenied(let trapped) = request(.item("r0c0")).error else {
      Issue.record("a request out of a trapping group was honoured")
      return
    }
    #expect(trapped.reason == .outsideTrappingGroup)
    #expect(trapped.message.contains("\"bottom\""))
    #expect(harness.domain.sessions["main"]?.focus.focused == "r1c0")
  }

  @Test("a patch that removes the focused item recovers focus and publishes a snapshot")
  func patches() throws {
    var harness = Harness()
    harness.register(Grid.twoRows())
    _ = harness.key(.right)  // r0c1, by a directional move
    let cause = harness.cause()
    let patch = harness.send(
      .patch(
        LayoutPatch([.removeItem("r0c1"), .setItemAvailable("r1c1", false)]), screen: "main",
        cause: cause))
    let ack = try #require(patch.ack)
    #expect(ack.focused == "r0c0")
    #expect(Self.moves(ack.effects) == ["r0c1 → r0c0 (recovery)"])
    guard case .snapshot(let snapshot) = try #require(patch.publications.first) else {
      Issue.record("a patch published no snapshot: \(patch.effects)")
      return
    }
    #expect(snapshot.focus.layout.items.count == 5 && snapshot.seq == ack.seq)
    #expect(snapshot.focus.displayState(of: "r1c1") == .unavailable)

    let cause2 = harness.cause()
    let bad = harness.send(
      .patch(LayoutPatch([.removeItem("ghost")]), screen: "main", cause: cause2))
    guard case .invalidLayout(let problem) = bad.error else {
      Issue.record("a bad patch was applied")
      return
    }
    #expect(problem.description == #"operations[0]: unknown item "ghost""#)
    #expect(bad.effects.isEmpty)
    #expect(harness.domain.sessions["main"]?.seq == ack.seq, "nothing changed")
  }

  @Test("the debugger answers on a live session and changes nothing")
  func debugger() {
    var harness = Harness()
    harness.register(Grid.twoRows())
    guard
      case .debugReport(_, .tabLoop(let stops)) = harness.send(.debug(.tabLoop, screen: "main"))
        .reply
    else {
      Issue.record("no tab loop")
      return
    }
    #expect(stops.map(\.group) == ["top", "bottom"] && stops.map(\.entry) == ["r0c0", "r1c0"])
    guard
      case .debugReport(_, .dryRun(let focused, let moved, _)) = harness.send(
        .debug(.dryRun("down"), screen: "main")
      ).reply
    else {
      Issue.record("no dry run")
      return
    }
    #expect(focused == "r1c0" && moved)
    #expect(
      harness.send(.debug(.dryRun("sideways"), screen: "main")).error
        == .unknownDebugInput("sideways"))
    guard
      case .debugReport(_, .explanation(let explanation)) = harness.send(
        .debug(.explainItem("r1c2"), screen: "main")
      ).reply
    else {
      Issue.record("no explanation")
      return
    }
    #expect(explanation.canFocus)
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c0")
    #expect(harness.domain.sessions["main"]?.seq == 1)
    // The dry run changed nothing: left from r0c0 is still a bump.
    #expect(harness.key(.left).ack?.effects == [.movementFailed(.left)])
  }
}
