import FocusEngine

// The one mapping between the wire's keys, key phases and touch phases and the engine's
// (`RemoteButton`, `ButtonPhase`, `TouchRecognizer.Phase`): everything above the socket speaks
// the engine's. Pointer phases are in Pointer+Wire.swift.

extension RemoteButton {
  /// The button a wire key names; nil if unspecified or unknown (a newer peer's key).
  public init?(wire: Tenfoot_V1_Key) {
    switch wire {
    case .up: self = .up
    case .down: self = .down
    case .left: self = .left
    case .right: self = .right
    case .select: self = .select
    case .menu: self = .menu
    case .home: self = .home
    case .playPause: self = .playPause
    case .pageUp: self = .pageUp
    case .pageDown: self = .pageDown
    case .tab: self = .tab
    case .shiftTab: self = .shiftTab
    case .volumeUp: self = .volumeUp
    case .volumeDown: self = .volumeDown
    case .mute: self = .mute
    case .power: self = .power
    case .info: self = .info
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension Tenfoot_V1_Key {
  /// The wire key of a remote button.
  public init(_ button: RemoteButton) {
    switch button {
    case .up: self = .up
    case .down: self = .down
    case .left: self = .left
    case .right: self = .right
    case .select: self = .select
    case .menu: self = .menu
    case .home: self = .home
    case .playPause: self = .playPause
    case .pageUp: self = .pageUp
    case .pageDown: self = .pageDown
    case .tab: self = .tab
    case .shiftTab: self = .shiftTab
    case .volumeUp: self = .volumeUp
    case .volumeDown: self = .volumeDown
    case .mute: self = .mute
    case .power: self = .power
    case .info: self = .info
    }
  }

  /// The button's canonical name ("play-pause"), or "unknown" for a key it does not know.
  public var name: String { RemoteButton(wire: self)?.name ?? "unknown" }
}

extension Tenfoot_V1_KeyPhase {
  /// The wire phase of a button's phase.
  public init(_ phase: ButtonPhase) {
    switch phase {
    case .down: self = .down
    case .held: self = .held
    case .up: self = .up
    }
  }
}

extension ButtonPhase {
  /// The phase a wire key phase names; nil if unspecified or unknown.
  public init?(wire: Tenfoot_V1_KeyPhase) {
    switch wire {
    case .down: self = .down
    case .held: self = .held
    case .up: self = .up
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension Tenfoot_V1_TouchPhase {
  /// The wire phase of a touch sample's phase.
  public init(_ phase: TouchRecognizer.Phase) {
    switch phase {
    case .began: self = .began
    case .moved: self = .moved
    case .ended: self = .ended
    case .cancelled: self = .cancelled
    }
  }
}

extension TouchRecognizer.Phase {
  /// The phase a wire touch phase names; nil if unspecified or unknown.
  public init?(wire: Tenfoot_V1_TouchPhase) {
    switch wire {
    case .began: self = .began
    case .moved: self = .moved
    case .ended: self = .ended
    case .cancelled: self = .cancelled
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}
