import BrokerDomain
import FocusEngine
import Testing

/// The pointer in the domain: its samples publish the pointer with the change, and a screen
/// heartbeat hides it once the layout's idle timeout has passed on the remote's clock.
@Suite("Domain: pointer publication and idle hide")
struct PointerDomainTests {
  static func pointed(_ outcome: BrokerDomain.Outcome) -> PointerPresentation? {
    for effect in outcome.effects {
      if case .publish(.change(let change)) = effect, let pointer = change.pointer {
        return pointer
      }
    }
    return nil
  }

  @Test("a pointer move publishes the pointer; a heartbeat after 2 s hides it, not before")
  func idleHideOnHeartbeat() throws {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 3))
    // r0c1's centre: (100 + 340 + 150, 200), at 5 s on the remote's clock.
    let cause = harness.cause()
    let moved = harness.send(
      .input(
        .pointer(PointerEvent(.moved, x: 590, y: 200, at: 5_000_000_000)), screen: "main",
        remote: "remote", cause: cause))
    #expect(moved.ack?.focused == "r0c1")
    let shown = try #require(Self.pointed(moved))
    #expect(shown.visible && shown.target == "r0c1")

    harness.now = harness.now + .milliseconds(1500)
    let early = harness.send(.heartbeat(screen: "main"))
    #expect(Self.pointed(early) == nil, "\(early.effects)")

    harness.now = harness.now + .milliseconds(600)
    let late = harness.send(.heartbeat(screen: "main"))
    let hidden = try #require(Self.pointed(late), "\(late.effects)")
    #expect(!hidden.visible)
    #expect(harness.domain.sessions["main"]?.focus.focused == "r0c1")
  }
}
