import BrokerDomain
import FocusEngine
import Testing

/// The broker's announcements: every published step carries what a screen reader says, with
/// the broker's clock as the edge cue's time.
@Suite("Domain: announcements in publications")
struct AnnouncementRulesTests {
  /// The change a request published, if any.
  func change(_ outcome: BrokerDomain.Outcome) -> StateChange? {
    for case .publish(.change(let change)) in outcome.effects { return change }
    return nil
  }

  @Test("a move publishes its announcement; entering a labelled group says the group")
  func move() throws {
    var harness = Harness()
    var layout = Grid.twoRows()
    layout.groups[1].accessibilityLabel = "Bottom row"
    harness.register(layout)
    let right = try #require(change(harness.key(.right)))
    #expect(right.announcement?.text == "Row 0 Col 1, not selected, button, 2 of 3")
    let down = try #require(change(harness.key(.down)))
    #expect(down.announcement?.text == "Bottom row, Row 1 Col 1, not selected, button, 2 of 3")
    #expect(down.announcement?.interrupt == true)
  }

  @Test("the edge cue is rate-limited by the broker's clock, whatever the remote's stamps say")
  func bumpByBrokerTime() throws {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 2))
    /// A press and release of left at `time` on the remote's clock: the press's change.
    func left(_ time: UInt64) -> StateChange? {
      let press = change(harness.key(.left, time: time))
      _ = harness.key(.left, .up, time: time + 1)
      return press
    }
    harness.now = .at(seconds: 10)
    #expect(left(1)?.announcement?.text == "end of row")
    harness.now = .at(seconds: 10) + .milliseconds(500)
    let quiet = try #require(left(10_000_000_000), "the bump is published")
    #expect(quiet.announcement == nil, "a bump 0.5 s later on the broker's clock has no cue")
    harness.now = .at(seconds: 12)
    #expect(left(10_000_000_100)?.announcement?.text == "end of row")
  }

  @Test("a patch's snapshot carries its announcement; a snapshot asked for carries none")
  func patchAndSnapshot() throws {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 3))
    let cause = harness.cause()
    let patched = harness.send(
      .patch(LayoutPatch([.removeItem("r0c0")]), screen: "main", cause: cause))
    guard case .publish(.snapshot(let published)) = try #require(patched.effects.last) else {
      Issue.record("no snapshot published: \(patched.effects)")
      return
    }
    #expect(published.announcement?.text == "Row 0 Col 1, not selected, button, 1 of 2")
    guard case .snapshot(let asked) = harness.send(.snapshot(screen: "main")).reply else {
      Issue.record("no snapshot reply")
      return
    }
    #expect(asked.announcement == nil)
  }

  @Test("a tilt alone publishes no announcement")
  func tilt() throws {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 3))
    let cause = harness.cause()
    let touch = harness.send(
      .input(.touch(.began, x: 0, y: 0, at: 1), screen: "main", remote: "r", cause: cause))
    #expect(change(touch)?.announcement == nil)
  }
}
