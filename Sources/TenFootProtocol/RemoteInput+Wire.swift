import FocusEngine

// The one mapping between the wire's keys, key phases and touch phases and the engine's
// (`RemoteButton`, `ButtonPhase`, `TouchRecognizer.Phase`): everything above the socket speaks
// the engine's. Pointer phases are in Pointer+Wire.swift. A whole `RemoteInput` goes out as
// `Tenfoot_V1_Input.OneOf_Event(_:)` below and comes back in through `KeyMapping`.

extension Tenfoot_V1_Input.OneOf_Event {
  /// The wire event of a remote input: the one way a remote's input (a web page's, a phone's,
  /// a terminal's, a device's) reaches the wire.
  public init(_ input: RemoteInput) {
    switch input {
    case .button(let button, let phase, let time):
      var event = Tenfoot_V1_KeyEvent()
      event.key = Tenfoot_V1_Key(button)
      event.phase = Tenfoot_V1_KeyPhase(phase)
      event.timestampNs = time
      self = .key(event)
    case .touch(let phase, let x, let y, let time):
      var event = Tenfoot_V1_TouchEvent()
      event.phase = Tenfoot_V1_TouchPhase(phase)
      event.x = x
      event.y = y
      event.timestampNs = time
      self = .touch(event)
    case .text(let edit):
      self = .text(Tenfoot_V1_TextInput(edit))
    case .pointer(let event):
      self = .pointer(Tenfoot_V1_PointerEvent(event))
    }
  }
}

extension Tenfoot_V1_TextInput {
  /// The wire form of a text edit.
  public init(_ edit: TextEdit) {
    self.init()
    switch edit {
    case .set(let value): set = value
    case .append(let value): append = value
    case .clear: clear = true
    }
  }
}

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
