/// A TenFoot remote key a device's input can become; the raw value is the key's canonical
/// name (as `tenfoot-remote press` takes it).
public enum DeviceKey: String, Sendable, Hashable, Codable, CaseIterable {
  case up, down, left, right, select, menu, home
  case playPause = "play-pause"
  case pageUp = "page-up"
  case pageDown = "page-down"
  case tab
  case shiftTab = "shift-tab"
  case volumeUp = "volume-up"
  case volumeDown = "volume-down"
  case mute, power, info
}

/// A key's phase as the remote sends it.
public enum DevicePhase: String, Sendable, Equatable {
  /// Pressed.
  case down
  /// Still down: a tick carrying the time (the broker derives repeats from it).
  case held
  /// Released.
  case up
}
