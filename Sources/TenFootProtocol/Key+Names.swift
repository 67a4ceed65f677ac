extension Tenfoot_V1_Key {
  /// Every key with the names a person may type for it; the first name is canonical.
  public static let names: [(key: Tenfoot_V1_Key, names: [String])] = [
    (.up, ["up"]), (.down, ["down"]), (.left, ["left"]), (.right, ["right"]),
    (.select, ["select", "enter", "return", "ok"]), (.menu, ["menu", "back", "escape", "esc"]),
    (.home, ["home", "tv"]), (.playPause, ["play-pause", "play_pause", "playpause", "play"]),
    (.pageUp, ["page-up", "page_up", "pageup"]),
    (.pageDown, ["page-down", "page_down", "pagedown"]), (.tab, ["tab"]),
    (.shiftTab, ["shift-tab", "shift_tab", "backtab"]),
    (.volumeUp, ["volume-up", "volume_up"]), (.volumeDown, ["volume-down", "volume_down"]),
    (.mute, ["mute"]), (.power, ["power"]), (.info, ["info"]),
  ]

  /// The key a name stands for (case-insensitive), or nil.
  public init?(name: String) {
    let lowered = name.lowercased()
    guard let entry = Self.names.first(where: { $0.names.contains(lowered) }) else { return nil }
    self = entry.key
  }

  /// The canonical name ("play-pause"), or "unknown".
  public var name: String {
    Self.names.first(where: { $0.key == self })?.names[0] ?? "unknown"
  }

  /// Every canonical key name, for help texts and error messages.
  public static var canonicalNames: [String] { names.map { $0.names[0] } }
}
