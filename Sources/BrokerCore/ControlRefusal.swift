import FocusEngine

/// Why a control message could not become a domain request, with its cause: refused at the
/// edge, before the domain sees it. `BrokerReply+Wire.swift` writes the sentence for people.
enum ControlRefusal: Error, Equatable {
  /// The envelope's protocol version is not this broker's.
  case unsupportedVersion(UInt32)
  /// A body the control socket does not accept (its wire name).
  case unexpectedMessage(String)
  /// Pairing messages belong on the pairing endpoint.
  case pairingOnControl
  /// The envelope has no body.
  case noBody
  /// A registration's screen id is not valid (the id rule's explanation).
  case invalidScreenID(String)
  /// A registration without a layout.
  case missingLayout
  /// A patch's operations do not convert.
  case invalidPatch(LayoutError)
  /// An input message whose event does not map to engine input.
  case invalidInput(KeyMappingError)
  /// An input message with no event.
  case noInputEvent
  /// A focus request with no target.
  case noFocusTarget
  /// A debug request with no query.
  case noDebugQuery
  /// An app reaction's command (its index) with nothing in it.
  case emptyCommand(Int)
}

/// Why an input message is not valid input, with the offending value.
enum KeyMappingError: Error, Equatable, CustomStringConvertible {
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

  var description: String {
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
