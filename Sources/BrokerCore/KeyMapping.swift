import FocusEngine
import TenFootProtocol

/// How remote input messages become the engine's timed remote input.
enum KeyMapping {
  /// The engine input for a key event; `.failure` for invalid input.
  static func input(for key: Tenfoot_V1_KeyEvent) -> Result<RemoteInput, KeyMappingError> {
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
