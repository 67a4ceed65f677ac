import FocusEngine
import Logging
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// The broker's pairing prompts on the screen: the PIN sealed to this screen's key, and the
/// notice that pairing is closed.
extension ScreenClient {
  /// Shows (or hides) a pairing prompt: the PIN comes sealed to this screen's key, and a
  /// prompt with nothing sealed to it is another screen's (not shown). Every prompt says
  /// whether pairing is closed; the notice changes only when that does (the broker repeats it
  /// while closed).
  func showPairing(_ prompt: Tenfoot_V1_PairingPrompt) throws {
    let display = renderer as? any PairingDisplay
    if prompt.closed != pairingClosed {
      pairingClosed = prompt.closed
      logger.notice("pairing closed notice", metadata: ["pairing.closed": "\(prompt.closed)"])
      if prompt.closed { try display?.showPairing(nil) }  // Closing withdrew any PIN.
      try display?.showPairingClosed(prompt.closed)
    }
    if prompt.closed { return }
    guard prompt.active else {
      logger.notice("pairing prompt", metadata: ["pairing.active": "false"])
      try display?.showPairing(nil)
      return
    }
    var pin = prompt.pin
    if let keyPair = configuration.curve?.keyPair, let own = Z85.decode(keyPair.publicKey),
      let sealed = prompt.sealed.first(where: { [UInt8]($0.screenKey) == own })
    {
      pin = SealedPIN.open([UInt8](sealed.box), with: keyPair) ?? ""
    }
    guard !pin.isEmpty else {
      logger.debug("pairing prompt for another screen")
      return
    }
    logger.notice("pairing prompt", metadata: ["pairing.active": "true"])
    try display?.showPairing(
      PairingOverlay(
        pin: pin, remoteName: prompt.remoteName, brokerFingerprint: prompt.brokerFingerprint))
  }
}
