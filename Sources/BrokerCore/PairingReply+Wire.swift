import BrokerDomain
import TenFootProtocol
import TenFootSecurity

extension PairingReply {
  /// The wire form of the reply (`brokerTag`: the broker's confirmation when the remote's
  /// verified).
  func wire(brokerKey: [UInt8], brokerTag: [UInt8]? = nil) -> Tenfoot_V1_Envelope.OneOf_Body {
    switch self {
    case .brokerKey:
      var challenge = Tenfoot_V1_PairChallenge()
      challenge.brokerKey = .init(brokerKey)
      return .pairChallenge(challenge)
    case .challenge(let pending, let expiresIn):
      var challenge = Tenfoot_V1_PairChallenge()
      challenge.nonce = .init(pending.round?.nonce ?? [])
      challenge.share = .init(pending.round?.share ?? [])
      challenge.pinDigits = UInt32(pending.pin.count)
      challenge.expiresInMs = expiresIn.wholeMillisecondsRoundedUp
      challenge.brokerKey = .init(brokerKey)
      return .pairChallenge(challenge)
    case .paired(let pending):
      var paired = Tenfoot_V1_Paired()
      paired.peerID = AllowList.id(of: pending.remoteKey)
      paired.brokerProof = .init(brokerTag ?? [])
      return .paired(paired)
    case .refused(.backoff(let wait)):
      return .error(backoff(.pairingBackoff, wait, "too many wrong PINs"))
    case .refused(.wrongPIN(let wait)):
      return .error(backoff(.pairingFailed, wait, "wrong PIN"))
    case .refused(.roundUsed):
      return .error(
        .init(.noPairing, "this round already answered a PIN: ask for the next round"))
    case .refused(.noPairing):
      return .error(
        .init(.noPairing, "no pairing in progress for this key (expired): start again"))
    case .refused(.busy(let wait)):
      return .error(
        backoff(.pairingBusy, wait, "another remote is pairing now; its PIN is not replaced"))
    case .refused(.closed(let wait?)):
      return .error(
        backoff(.pairingClosed, wait, "too many wrong PINs from this address"))
    case .refused(.closed(nil)):
      return .error(
        .init(
          .pairingClosed,
          "pairing is closed after too many wrong PINs: open it at a screen with "
            + "tenfoot-screen pairing open, or the operator with tenfoot-broker pairing open"))
    case .opened(let screen, _):
      var ack = Tenfoot_V1_Ack()
      ack.screenID = screen
      return .ack(ack)
    case .refused(.forbidden(let refusal)):
      return .error(.init(.forbidden, refusal.sentence))
    case .refused(.unknownScreen(let screen, let known)):
      return .error(.init(BrokerError.unknownScreen(screen, known: known)))
    }
  }

  /// A back-off refusal: the wait in whole seconds for people, in milliseconds for programs.
  private func backoff(_ code: Tenfoot_V1_ErrorCode, _ wait: Duration, _ what: String)
    -> Tenfoot_V1_Error
  {
    var error = Tenfoot_V1_Error(code, "\(what): try again in \(wait.wholeSecondsRoundedUp) s")
    error.retryAfterMs = wait.wholeMillisecondsRoundedUp
    return error
  }
}
