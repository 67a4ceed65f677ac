import BrokerDomain
import FocusEngine
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// A pairing envelope mapped to the pairing session's request: checked (key, nonce, name,
/// sender), with a fresh CPace round drawn for a new pairing or round, and a proof checked
/// against the round the broker kept.
extension PairingServer {
  /// A refusal of a pairing envelope, as a reply body.
  struct Refusal: Error {
    let body: Tenfoot_V1_Envelope.OneOf_Body
    init(_ body: Tenfoot_V1_Envelope.OneOf_Body) { self.body = body }
  }

  /// Maps a pairing envelope to the domain's request (and, for a proof, the broker's
  /// confirmation tag if the proof checks), or the refusal to answer instead.
  func pairingRequest(_ envelope: Tenfoot_V1_Envelope, from address: String)
    -> Result<(PairingRequest, brokerTag: [UInt8]?), Refusal>
  {
    let request: PairingRequest
    var remoteKeyBytes: [UInt8] = []
    var brokerTag: [UInt8]?
    if !envelope.sender.isEmpty, let problem = TextRules.idProblem(envelope.sender) {
      return .failure(Refusal(.error(.init(.malformed, "sender: " + problem))))
    }
    switch envelope.body {
    case .pairRequest(let pair) where pair.publicKey.isEmpty:
      request = .probe
    case .pairRequest(let pair):
      guard pair.publicKey.count == 32, let key = Z85.encode([UInt8](pair.publicKey)) else {
        return .failure(Refusal(.error(.init(.invalidInput, "public_key must be 32 bytes"))))
      }
      guard PairingProof.nonceRange.contains(pair.nonce.count) else {
        return .failure(Refusal(.error(.init(.invalidInput, "nonce must be 16 to 64 bytes"))))
      }
      if let problem = PairingName.problem(pair.name) {
        return .failure(Refusal(.error(.init(.invalidInput, "name: " + problem))))
      }
      remoteKeyBytes = [UInt8](pair.publicKey)
      if pair.nextRound {
        guard let pin = session.pending?.pin else {
          return .failure(Refusal(PairingReply.refused(.noPairing).wire(brokerKey: brokerKey)))
        }
        request = .nextRound(
          remoteKey: key,
          round: drawRound(pin: pin, remoteKey: remoteKeyBytes, remoteNonce: [UInt8](pair.nonce)))
      } else {
        let screen = pair.screenID.isEmpty ? nil : pair.screenID
        if let problem = pinShownNowhere(screen: screen) { return .failure(Refusal(problem)) }
        let pin = PairingProof.randomPIN()
        request = .begin(
          remoteKey: key, name: PairingName.clean(pair.name), pin: pin,
          round: drawRound(pin: pin, remoteKey: remoteKeyBytes, remoteNonce: [UInt8](pair.nonce)),
          screen: screen)
      }
    case .pairProof(let proof):
      guard proof.publicKey.count == 32, let key = Z85.encode([UInt8](proof.publicKey)) else {
        return .failure(Refusal(.error(.init(.invalidInput, "public_key must be 32 bytes"))))
      }
      remoteKeyBytes = [UInt8](proof.publicKey)
      brokerTag = session.pending.flatMap { pending in
        pending.round.flatMap {
          PairingProof.brokerConfirms(
            party(pending.pin, $0, remoteKey: remoteKeyBytes), remoteShare: [UInt8](proof.share),
            tag: [UInt8](proof.proof))
        }
      }
      request = .prove(remoteKey: key, proofMatches: brokerTag != nil)
    default:
      return .failure(
        Refusal(
          .error(
            .init(.unexpectedMessage, "the pairing socket answers only pair_request and pair_proof")
          )))
    }
    return .success((request, brokerTag))
  }

  /// A fresh CPace round for `pin`: the broker's nonce and scalar, and its share.
  private func drawRound(pin: String, remoteKey: [UInt8], remoteNonce: [UInt8]) -> PairingRound {
    let nonce = PairingProof.randomBytes(PairingProof.nonceLength)
    let secret = CPace.sampleScalar()
    let party = PairingProof.broker(
      pin: pin, brokerKey: brokerKey, remoteKey: remoteKey, brokerNonce: nonce,
      remoteNonce: remoteNonce, secret: secret)
    return PairingRound(nonce: nonce, remoteNonce: remoteNonce, secret: secret, share: party.share)
  }

  /// The broker's side of `round` again, from the scalar it kept.
  private func party(_ pin: String, _ round: PairingRound, remoteKey: [UInt8]) -> CPaceParty {
    PairingProof.broker(
      pin: pin, brokerKey: brokerKey, remoteKey: remoteKey, brokerNonce: round.nonce,
      remoteNonce: round.remoteNonce, secret: round.secret)
  }
}
