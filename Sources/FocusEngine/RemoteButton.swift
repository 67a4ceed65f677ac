/// A remote's button: the one key type of the remote, its devices, the broker and the engine.
/// The raw value is the canonical name (`tenfoot-remote press play-pause`, a device mapping
/// file's values). The wire's key is mapped to it in one place, TenFootProtocol's
/// `RemoteInput+Wire.swift`.
public enum RemoteButton: String, Sendable, Hashable, Codable, CaseIterable {
  case up, down, left, right, select, menu, home
  case playPause = "play-pause"
  case pageUp = "page-up"
  case pageDown = "page-down"
  case tab
  case shiftTab = "shift-tab"
  case volumeUp = "volume-up"
  case volumeDown = "volume-down"
  case mute, power, info

  /// The other names a person may type for a button (`enter` for select, `back` for menu).
  private static let aliases: [String: RemoteButton] = [
    "enter": .select, "return": .select, "ok": .select,
    "back": .menu, "escape": .menu, "esc": .menu, "tv": .home,
    "play_pause": .playPause, "playpause": .playPause, "play": .playPause,
    "page_up": .pageUp, "pageup": .pageUp, "page_down": .pageDown, "pagedown": .pageDown,
    "shift_tab": .shiftTab, "backtab": .shiftTab,
    "volume_up": .volumeUp, "volume_down": .volumeDown,
  ]

  /// The button a name stands for (case-insensitive; canonical or an alias), or nil.
  public init?(name: String) {
    let lowered = name.lowercased()
    guard let button = RemoteButton(rawValue: lowered) ?? Self.aliases[lowered] else {
      return nil
    }
    self = button
  }

  /// The canonical name ("play-pause").
  public var name: String { rawValue }

  /// Every canonical name, for help texts and error messages.
  public static var canonicalNames: [String] { allCases.map(\.rawValue) }

  /// The direction of an arrow button; nil for the others.
  public var direction: Direction? {
    switch self {
    case .up: .up
    case .down: .down
    case .left: .left
    case .right: .right
    default: nil
    }
  }
}

/// A button's phase: pressed, still held (a tick the remote sends while holding), released.
public enum ButtonPhase: String, Sendable, Hashable, CaseIterable {
  case down, held, up
}
