/// Why a phone session could not start.
enum PhoneError: Error, CustomStringConvertible {
  /// The pairing endpoint presented another key than the broker this screen trusts.
  case brokerKeyDiffers(presented: String)
  /// The broker's pairing prompt for this phone never reached the screen.
  case noPrompt
  /// The broker refused the PIN.
  case pairingRefused(String)

  var description: String {
    switch self {
    case .brokerKeyDiffers(let presented):
      "the pairing endpoint presented key \(presented), not the broker's this screen trusts"
    case .noPrompt: "the broker's pairing prompt did not reach this screen within 15 s"
    case .pairingRefused(let message): "the broker refused the pairing: \(message)"
    }
  }
}
