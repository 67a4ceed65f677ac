import FocusEngine
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

@testable import RemoteCore

/// A tap's stamps say when it was pressed and let go, never when the broker answered: the
/// broker derives repeats, long presses and double taps from them alone. The broker here
/// acknowledges every key down late (600 ms: past the 500 ms repeat delay and the 300 ms
/// double-tap window; 1.1 s for a click: past the 1 s long press), as a zone's press that
/// waited for its screen after a takeover was (FailoverTests' store restart under load: one
/// `right` moved focus six steps).
@Suite("Tap timing with a broker that answers late", .serialized)
struct TapTimingTests {
  /// Performs `action` against a broker that acknowledges downs late; returns the key events
  /// it received and the focus they give on a 1×10 grid from r0c0, run through the broker's
  /// interpreter.
  private func perform(_ action: RemoteAction, delay: Duration = .milliseconds(600)) throws -> (
    events: [Tenfoot_V1_KeyEvent], focus: FocusState, effects: [FocusEffect]
  ) {
    let context = try Context()
    let broker = try LateBroker(context: context, delay: delay)
    defer { broker.stop() }
    let remote = try RemoteClient(
      context: context, endpoint: broker.endpoint, screen: "main", timeout: .seconds(5))
    _ = try remote.perform(action)
    let events = broker.keyEvents
    var focus = try FocusState(layout: TestLayouts.grid(rows: 1, columns: 10))
    var interpreter = RemoteInterpreter()
    var effects: [FocusEffect] = []
    for event in events {
      let button = try #require(RemoteButton(wire: event.key))
      let phase: ButtonPhase = event.phase == .down ? .down : event.phase == .up ? .up : .held
      effects += interpreter.handle(.button(button, phase, at: event.timestampNs), &focus)
    }
    return (events, focus, effects)
  }

  @Test("a press acknowledged 600 ms late is released when pressed: one step, no repeats")
  func press() throws {
    let (events, focus, _) = try perform(.press(.right))
    #expect(events.map(\.phase) == [.down, .up])
    #expect(
      events.map(\.timestampNs) == [events[0].timestampNs, events[0].timestampNs],
      "the up is stamped when the down was acknowledged, not when it was pressed")
    #expect(focus.focused == "r0c1", "one right moved focus to \(focus.focused ?? "none")")
  }

  @Test("a click acknowledged 1.1 s late activates: not a long press")
  func click() throws {
    let (events, _, effects) = try perform(.click, delay: .milliseconds(1100))
    #expect(events.map(\.phase) == [.down, .up])
    #expect(events.map(\.timestampNs) == [events[0].timestampNs, events[0].timestampNs])
    #expect(effects.contains(.activated("r0c0")), "\(effects)")
  }

  @Test("a double tap whose first tap is acknowledged 600 ms late is still a double tap")
  func double() throws {
    let (events, _, effects) = try perform(.double(.select))
    let stamps = events.map(\.timestampNs)
    #expect(events.map(\.phase) == [.down, .up, .down, .up])
    #expect(
      stamps.count == 4
        && MonotonicInstant(nanoseconds: stamps[2]) - MonotonicInstant(nanoseconds: stamps[0])
          == RemoteClient.doubleTapGap,
      "\(stamps)"
    )
    #expect(effects.contains(.doubleTap(.select)), "\(effects)")
  }
}
