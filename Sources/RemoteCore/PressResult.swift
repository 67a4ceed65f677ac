import FocusEngine
import TerminalUI

/// What one key press (or gesture) did.
public struct PressResult: Sendable {
  /// `parts` with each run of equal ones written once, with its count: a held key's 29 bumps
  /// read `bump right: no item that way ×29`.
  public static func coalesced(_ parts: [String]) -> [String] {
    var runs: [(text: String, count: Int)] = []
    for part in parts {
      if runs.last?.text == part { runs[runs.count - 1].count += 1 } else { runs.append((part, 1)) }
    }
    return runs.map { $0.count == 1 ? $0.text : "\($0.text) ×\($0.count)" }
  }

  /// `value` in degrees with one decimal ("6.2°").
  static func degrees(_ value: Double) -> String {
    let tenths = (value * 10).rounded() / 10
    return "\(tenths == 0 ? 0 : tenths)°"
  }

  /// What was done: a key name, or a gesture ("swipe right").
  public var name: String
  /// The engine's effects, in order (down, then up).
  public var effects: [FocusEffect]
  /// The focused item afterwards.
  public var focused: String?
  /// Whether the focused item is a text field (the remote may `type`).
  public var editingText = false
  /// A drag's tilt of the focused item while the finger rested.
  public var tilt: Tilt?

  /// How far a resting finger tilted an item, in degrees.
  public struct Tilt: Sendable, Equatable {
    /// The tilted item.
    public var item: String
    /// Rotation about the horizontal axis (a finger above or below the centre).
    public var rotateX: Double
    /// Rotation about the vertical axis (a finger left or right of the centre).
    public var rotateY: Double
  }

  /// What `name` did, from the broker's acks in order: every effect, and the focus and
  /// text-field state of the last.
  public init(name: String, acks: [InputAck], tilt: Tilt? = nil) {
    self.name = name
    effects = acks.flatMap(\.effects)
    focused = acks.last?.focused
    editingText = acks.last?.editingText ?? false
    self.tilt = tilt
  }

  /// One line for people and scripts: `right: focus r0c0 → r0c1 (right); focused r0c1`.
  /// Filtered for a terminal (``TerminalText``): the effects carry text from the broker.
  public var line: String {
    var parts = Self.coalesced(effects.map(\.summary))
    if let tilt {
      parts.append(
        "tilted \(tilt.item) rotateX \(Self.degrees(tilt.rotateX)), rotateY \(Self.degrees(tilt.rotateY))"
      )
    }
    let what = parts.isEmpty ? "no effect" : parts.joined(separator: "; ")
    return TerminalText.printable(
      "\(name): \(what); focused \(focused ?? "none")\(editingText ? " (text field: type to edit)" : "")"
    )
  }
}
