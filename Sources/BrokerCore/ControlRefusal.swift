import FocusEngine
import TenFootProtocol

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
