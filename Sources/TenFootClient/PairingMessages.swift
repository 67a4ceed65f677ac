import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// The messages of a remote's pairing, made and read without a socket: `PairingClient` sends
/// each and waits for its reply; a loop (the phone remote's sessions) sends them as requests
/// whose replies come back as loop events. Each round is one CPace exchange (see
/// `PairingProof`): the PIN never leaves this process.
public struct PairingMessages: Sendable {
  /// This remote's public key, raw.
  let publicKey: [UInt8]
  /// The name the screens show beside the PIN.
  let name: String
  /// The screen that shows the PIN (nil: every screen key).
  public var screen: String?

  /// The messages of `name`'s pairing with the key whose public half is `publicKey` (Z85).
  public init(publicKey: String, name: String) throws(PairingError) {
    guard let key = Z85.decode(publicKey) else { throw .invalidOwnKey }
    self.publicKey = key
    self.name = name
  }

  /// A request for a round of the pairing (`next`: another round of the one in progress, same
  /// PIN), and the remote's nonce its challenge is read with.
  public func roundRequest(next: Bool) -> (
    body: Tenfoot_V1_Envelope.OneOf_Body, remoteNonce: [UInt8]
  ) {
    var request = Tenfoot_V1_PairRequest()
    request.name = name
    if let screen { request.screenID = screen }
    request.publicKey = .init(publicKey)
    request.nextRound = next
    let remoteNonce = PairingProof.randomBytes(PairingProof.nonceLength)
    request.nonce = .init(remoteNonce)
    return (.pairRequest(request), remoteNonce)
  }

  /// The round the broker's `reply` to a round request starts.
  public static func challenge(from reply: Tenfoot_V1_Envelope.OneOf_Body, remoteNonce: [UInt8])
    throws(PairingError) -> PairingClient.Challenge
  {
    switch reply {
    case .pairChallenge(let challenge):
      let key = [UInt8](challenge.brokerKey)
      guard key.count == 32, let text = Z85.encode(key),
        PairingProof.nonceRange.contains(challenge.nonce.count),
        challenge.share.count == PairingProof.shareLength
      else {
        throw .unusableChallenge
      }
      return PairingClient.Challenge(
        nonce: [UInt8](challenge.nonce), remoteNonce: remoteNonce,
        share: [UInt8](challenge.share), brokerKey: key, brokerKeyText: text,
        digits: Int(challenge.pinDigits))
    case .error(let error):
      throw .refused(BrokerRefusal(wire: error))
    default:
      throw .unexpectedReply
    }
  }

  /// The proof that tries `pin` in `challenge`'s round (used up either way), and the tag the
  /// broker's confirmation must carry.
  public func proof(pin: String, challenge: PairingClient.Challenge) throws(PairingError) -> (
    body: Tenfoot_V1_Envelope.OneOf_Body, brokerTag: [UInt8]
  ) {
    let party = PairingProof.remote(
      pin: pin, brokerKey: challenge.brokerKey, remoteKey: publicKey,
      brokerNonce: challenge.nonce, remoteNonce: challenge.remoteNonce)
    guard let keys = party.finish(peerShare: challenge.share, peerData: PairingProof.brokerData)
    else { throw .unusableChallenge }
    var proof = Tenfoot_V1_PairProof()
    proof.publicKey = .init(publicKey)
    proof.share = .init(party.share)
    proof.proof = .init(keys.ownTag)
    return (.pairProof(proof), keys.peerTag)
  }

  /// How the attempt ended, from the broker's `reply` to a proof: paired once its own
  /// confirmation carries `brokerTag`.
  public static func attempt(from reply: Tenfoot_V1_Envelope.OneOf_Body, brokerTag: [UInt8])
    throws(PairingError) -> PairingClient.Attempt
  {
    switch reply {
    case .paired(let paired):
      guard PairingProof.equalInConstantTime([UInt8](paired.brokerProof), brokerTag) else {
        throw .brokerProofInvalid
      }
      return .paired(id: paired.peerID)
    case .error(let error):
      let refusal = BrokerRefusal(wire: error)
      guard refusal.code == .pairingFailed || refusal.code == .pairingBackoff else {
        throw .failed(refusal)
      }
      return .refused(message: refusal.message, retryAfter: refusal.retryAfter)
    default:
      throw .unexpectedReply
    }
  }
}
