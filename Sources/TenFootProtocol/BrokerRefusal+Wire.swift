// The one mapping between the wire's `Error` and `BrokerRefusal`: everything above the socket
// speaks the refusal.

extension BrokerRefusal {
  /// The refusal a wire error carries.
  public init(wire: Tenfoot_V1_Error) {
    self.init(
      Code(wire: wire.code), wire.message,
      retryAfter: .milliseconds(Int64(clamping: wire.retryAfterMs)))
  }
}

extension Tenfoot_V1_Error {
  /// The wire error of a refusal.
  public init(_ refusal: BrokerRefusal) {
    self.init()
    code = Tenfoot_V1_ErrorCode(refusal.code)
    message = refusal.message
    let milliseconds = (refusal.retryAfter / .milliseconds(1)).rounded(.up)
    retryAfterMs = milliseconds < Double(UInt64.max) ? UInt64(max(0, milliseconds)) : .max
  }
}

extension Tenfoot_V1_ErrorCode {
  /// The short name of the code ("unknown_screen").
  public var name: String { BrokerRefusal.Code(wire: self).name }

  /// The wire code of a refusal's code.
  public init(_ code: BrokerRefusal.Code) {
    switch code {
    case .unspecified: self = .unspecified
    case .malformed: self = .malformed
    case .unsupportedVersion: self = .unsupportedVersion
    case .unknownScreen: self = .unknownScreen
    case .invalidLayout: self = .invalidLayout
    case .invalidInput: self = .invalidInput
    case .unexpectedMessage: self = .unexpectedMessage
    case .ambiguousScreen: self = .ambiguousScreen
    case .unknownTarget: self = .unknownTarget
    case .focusUnavailable: self = .focusUnavailable
    case .focusTrapped: self = .focusTrapped
    case .focusAmbiguous: self = .focusAmbiguous
    case .noTextField: self = .noTextField
    case .screenGone: self = .screenGone
    case .notPaired: self = .notPaired
    case .pairingFailed: self = .pairingFailed
    case .pairingBackoff: self = .pairingBackoff
    case .noPairing: self = .noPairing
    case .rateLimited: self = .rateLimited
    case .storeUnavailable: self = .storeUnavailable
    case .forbidden: self = .forbidden
    case .pairingBusy: self = .pairingBusy
    case .pairingClosed: self = .pairingClosed
    case .partsRefused: self = .partsRefused
    case .unrecognized(let value): self = .UNRECOGNIZED(value)
    }
  }
}

extension BrokerRefusal.Code {
  /// The code a wire code names.
  public init(wire: Tenfoot_V1_ErrorCode) {
    switch wire {
    case .unspecified: self = .unspecified
    case .malformed: self = .malformed
    case .unsupportedVersion: self = .unsupportedVersion
    case .unknownScreen: self = .unknownScreen
    case .invalidLayout: self = .invalidLayout
    case .invalidInput: self = .invalidInput
    case .unexpectedMessage: self = .unexpectedMessage
    case .ambiguousScreen: self = .ambiguousScreen
    case .unknownTarget: self = .unknownTarget
    case .focusUnavailable: self = .focusUnavailable
    case .focusTrapped: self = .focusTrapped
    case .focusAmbiguous: self = .focusAmbiguous
    case .noTextField: self = .noTextField
    case .screenGone: self = .screenGone
    case .notPaired: self = .notPaired
    case .pairingFailed: self = .pairingFailed
    case .pairingBackoff: self = .pairingBackoff
    case .noPairing: self = .noPairing
    case .rateLimited: self = .rateLimited
    case .storeUnavailable: self = .storeUnavailable
    case .forbidden: self = .forbidden
    case .pairingBusy: self = .pairingBusy
    case .pairingClosed: self = .pairingClosed
    case .partsRefused: self = .partsRefused
    case .UNRECOGNIZED(let value): self = .unrecognized(value)
    }
  }
}
