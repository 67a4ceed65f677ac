import FocusEngine

/// How remote input messages become the engine's timed remote input: the broker's one way in
/// from the wire, checking every key, phase and coordinate. The way out is
/// `Tenfoot_V1_Input.OneOf_Event(_:)` (RemoteInput+Wire.swift).
package enum KeyMapping {
  /// The engine input for an input message's event; `.failure` for invalid input.
  package static func input(for event: Tenfoot_V1_Input.OneOf_Event)
    -> Result<RemoteInput, KeyMappingError>
  {
    switch event {
    case .key(let key): input(for: key)
    case .touch(let touch): input(for: touch)
    case .text(let text): input(for: text)
    case .pointer(let pointer): input(for: pointer)
    }
  }

  /// The engine input for a key event; `.failure` for invalid input.
  package static func input(for key: Tenfoot_V1_KeyEvent) -> Result<RemoteInput, KeyMappingError> {
    guard let phase = ButtonPhase(wire: key.phase) else { return .failure(.keyPhase) }
    guard let button = RemoteButton(wire: key.key) else {
      return .failure(.unknownKey(key.key.rawValue))
    }
    return .success(.button(button, phase, at: key.timestampNs))
  }

  /// The engine input for a touch sample; coordinates must be finite and in [−1, 1].
  static func input(for touch: Tenfoot_V1_TouchEvent) -> Result<RemoteInput, KeyMappingError> {
    guard let phase = TouchRecognizer.Phase(wire: touch.phase) else {
      return .failure(.touchPhase)
    }
    for (name, value) in [("x", touch.x), ("y", touch.y)]
    where !(value.isFinite && value >= -1 && value <= 1) {
      return .failure(.touchOutOfRange(axis: name, value: value))
    }
    return .success(.touch(phase, x: touch.x, y: touch.y, at: touch.timestampNs))
  }

  /// The engine input for a pointer sample: a known phase and finite coordinates (positions
  /// off the canvas are clamped later, by the engine).
  static func input(for pointer: Tenfoot_V1_PointerEvent) -> Result<RemoteInput, KeyMappingError> {
    guard let phase = PointerPhase(wire: pointer.phase) else { return .failure(.pointerPhase) }
    for (name, value) in [("x", pointer.x), ("y", pointer.y)] where !value.isFinite {
      return .failure(.pointerNotFinite(axis: name, value: value))
    }
    return .success(
      .pointer(
        PointerEvent(
          phase, x: pointer.x, y: pointer.y, relative: pointer.relative, buttons: pointer.buttons,
          at: pointer.timestampNs)))
  }

  /// The engine input for text.
  static func input(for text: Tenfoot_V1_TextInput) -> Result<RemoteInput, KeyMappingError> {
    switch text.edit {
    case .set(let value): .success(.text(.set(value)))
    case .append(let value): .success(.text(.append(value)))
    case .clear: .success(.text(.clear))
    case nil: .failure(.noTextEdit)
    }
  }
}

/// Why an input message is not valid input, with the offending value.
package enum KeyMappingError: Error, Equatable, CustomStringConvertible {
  /// A key event's phase is not down, held or up.
  case keyPhase
  /// A key the protocol does not know (its raw value).
  case unknownKey(Int)
  /// A touch sample's phase is not began, moved, ended or cancelled.
  case touchPhase
  /// A touch coordinate outside [−1, 1] or not finite (the axis and value).
  case touchOutOfRange(axis: String, value: Double)
  /// A text input with no edit.
  case noTextEdit
  /// A pointer sample's phase is not moved, down, up, cancelled or scroll.
  case pointerPhase
  /// A pointer coordinate that is not finite (the axis and value).
  case pointerNotFinite(axis: String, value: Double)

  package var description: String {
    switch self {
    case .keyPhase: "key phase must be down, held or up"
    case .unknownKey(let value): "unknown key (\(value))"
    case .touchPhase: "touch phase must be began, moved, ended or cancelled"
    case .touchOutOfRange(let axis, let value):
      "touch \(axis) must be a number in [-1, 1], got \(value)"
    case .noTextEdit: "text input has no edit"
    case .pointerPhase: "pointer phase must be moved, down, up, cancelled or scroll"
    case .pointerNotFinite(let axis, let value):
      "pointer \(axis) must be a finite number, got \(value)"
    }
  }
}
