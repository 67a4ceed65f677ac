import FocusEngine
import TenFootProtocol

/// A frame's status line (``ScreenFrame/lastEvent``): either a line as given, or the effects a
/// delta applied, joined into a line only when someone reads it.
///
/// Why: formatting and joining the effects' summaries costs thousands of instructions an
/// effect, on the path a press's latency measures (a delta applied), and only the renderers
/// with a status line (terminal, SVG, headless, web) read it, when they draw.
/// Two lines are equal when their text is (two equal effect lists are equal without it).
enum EventLine: Sendable, Equatable {
  /// A line as given (nil: none).
  case text(String?)
  /// The effects of the delta applied last: their summaries joined with "; ".
  case effects([Tenfoot_V1_FocusEffect])
  /// The same, from a delta read straight into engine values (`DeltaFrame`): their summaries
  /// are the wire effects' (which are the engine's).
  case events([FocusEffect])

  /// The line itself.
  var text: String? {
    switch self {
    case .text(let line): line
    case .effects(let effects): effects.map(\.summary).joined(separator: "; ")
    case .events(let events): events.map(\.summary).joined(separator: "; ")
    }
  }

  static func == (lhs: EventLine, rhs: EventLine) -> Bool {
    if case .effects(let left) = lhs, case .effects(let right) = rhs, left == right {
      return true
    }
    if case .events(let left) = lhs, case .events(let right) = rhs, left == right {
      return true
    }
    return lhs.text == rhs.text
  }
}
