/// The broker's refusal of a request, as everything above the socket sees it: what kind of
/// refusal (a code a program acts on), the broker's sentence for people, and, for a back-off,
/// how long to wait. `BrokerRefusal+Wire.swift` maps it to and from the wire's `Error`.
public struct BrokerRefusal: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of refusal it is (the protocol's error codes: docs/protocol.md).
  public enum Code: Sendable, Equatable {
    case unspecified
    case malformed
    case unsupportedVersion
    case unknownScreen
    case invalidLayout
    case invalidInput
    case unexpectedMessage
    case ambiguousScreen
    case unknownTarget
    case focusUnavailable
    case focusTrapped
    case focusAmbiguous
    case noTextField
    case screenGone
    case notPaired
    case pairingFailed
    case pairingBackoff
    case noPairing
    case rateLimited
    case storeUnavailable
    case forbidden
    case pairingBusy
    case pairingClosed
    case partsRefused
    /// A code this peer does not know (a newer broker's), by its number.
    case unrecognized(Int)

    /// The code's short name ("unknown_screen").
    public var name: String {
      switch self {
      case .unspecified: "unspecified"
      case .malformed: "malformed"
      case .unsupportedVersion: "unsupported_version"
      case .unknownScreen: "unknown_screen"
      case .invalidLayout: "invalid_layout"
      case .invalidInput: "invalid_input"
      case .unexpectedMessage: "unexpected_message"
      case .ambiguousScreen: "ambiguous_screen"
      case .unknownTarget: "unknown_target"
      case .focusUnavailable: "focus_unavailable"
      case .focusTrapped: "focus_trapped"
      case .focusAmbiguous: "focus_ambiguous"
      case .noTextField: "no_text_field"
      case .screenGone: "screen_gone"
      case .notPaired: "not_paired"
      case .pairingFailed: "pairing_failed"
      case .pairingBackoff: "pairing_backoff"
      case .noPairing: "no_pairing"
      case .rateLimited: "rate_limited"
      case .storeUnavailable: "store_unavailable"
      case .forbidden: "forbidden"
      case .pairingBusy: "pairing_busy"
      case .pairingClosed: "pairing_closed"
      case .partsRefused: "parts_refused"
      case .unrecognized(let value): "code_\(value)"
      }
    }
  }

  /// What kind of refusal it is.
  public var code: Code
  /// The broker's sentence for people, naming the field or id.
  public var message: String
  /// How long to wait before trying again (pairing back-offs); zero when not applicable.
  public var retryAfter: Duration

  /// A refusal with `code`, `message` and, for a back-off, `retryAfter`.
  public init(_ code: Code, _ message: String, retryAfter: Duration = .zero) {
    self.code = code
    self.message = message
    self.retryAfter = retryAfter
  }

  /// `code: message`.
  public var description: String { "\(code.name): \(message)" }
}
