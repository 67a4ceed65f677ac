import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// The remote's side of pairing, over the broker's pairing endpoint (plain ZeroMQ: the remote
/// is not on the allow-list yet). The PIN never leaves this process: each attempt is one CPace
/// round (see `PairingProof`), whose messages let no one test a PIN offline.
public final class PairingClient {
  private let connection: ControlConnection
  let trust: ClientTrust
  private let name: String
  private let timeoutMilliseconds: Int
  private let publicKey: [UInt8]

  /// One round of a pairing: what the broker sent, and the remote's nonce.
  public struct Challenge: Sendable {
    /// The broker's nonce.
    public var nonce: [UInt8]
    /// This remote's nonce for the round.
    public var remoteNonce: [UInt8]
    /// The broker's CPace share.
    public var share: [UInt8]
    /// The broker's public key, raw.
    public var brokerKey: [UInt8]
    /// The broker's public key, Z85.
    public var brokerKeyText: String
    /// The number of PIN digits.
    public var digits: Int
  }

  /// How one PIN attempt ended.
  public enum Attempt: Sendable, Equatable {
    /// Paired with this allow-list id.
    case paired(id: String)
    /// Wrong PIN (or still backing off): wait this many milliseconds before the next attempt.
    case refused(message: String, retryAfterMilliseconds: UInt64)
  }

  /// Connects to the pairing endpoint.
  public init(
    context: Context, pairingEndpoint: String, trust: ClientTrust, name: String,
    timeoutMilliseconds: Int
  ) throws(PairingError) {
    do {
      connection = try ControlConnection(
        context: context, endpoint: pairingEndpoint, sender: "pair")
    } catch {
      throw PairingError("cannot connect to \(pairingEndpoint): \(error)")
    }
    guard let key = Z85.decode(trust.keyPair.publicKey) else {
      throw PairingError("this remote's key file holds no valid public key")
    }
    publicKey = key
    self.trust = trust
    self.name = name
    self.timeoutMilliseconds = timeoutMilliseconds
  }

  /// Asks only for the broker's current public key (Z85), starting no pairing.
  public func probeKey() throws(PairingError) -> String {
    switch try exchange(.pairRequest(Tenfoot_V1_PairRequest())) {
    case .pairChallenge(let challenge):
      guard challenge.brokerKey.count == 32, let text = Z85.encode([UInt8](challenge.brokerKey))
      else { throw PairingError("the broker sent no usable key") }
      return text
    default:
      throw PairingError("unexpected answer from the broker's pairing endpoint")
    }
  }

  /// Asks the broker to show a PIN; returns its first round.
  public func begin() throws(PairingError) -> Challenge {
    try round(next: false)
  }

  /// Asks for another round of the pairing in progress (same PIN), for the next attempt.
  public func nextRound() throws(PairingError) -> Challenge {
    try round(next: true)
  }

  private func round(next: Bool) throws(PairingError) -> Challenge {
    var request = Tenfoot_V1_PairRequest()
    request.name = name
    request.publicKey = .init(publicKey)
    request.nextRound = next
    let remoteNonce = PairingProof.randomBytes(PairingProof.nonceLength)
    request.nonce = .init(remoteNonce)
    switch try exchange(.pairRequest(request)) {
    case .pairChallenge(let challenge):
      let key = [UInt8](challenge.brokerKey)
      guard key.count == 32, let text = Z85.encode(key),
        PairingProof.nonceRange.contains(challenge.nonce.count),
        challenge.share.count == PairingProof.shareLength
      else {
        throw PairingError("the broker sent an unusable challenge")
      }
      return Challenge(
        nonce: [UInt8](challenge.nonce), remoteNonce: remoteNonce,
        share: [UInt8](challenge.share), brokerKey: key, brokerKeyText: text,
        digits: Int(challenge.pinDigits))
    case .error(let error) where error.code == .pairingBackoff:
      throw PairingError(
        "the broker refused to pair: \(error.message)",
        retryAfterMilliseconds: error.retryAfterMs)
    case .error(let error):
      throw PairingError("the broker refused to pair: \(error.message)")
    default:
      throw PairingError("unexpected answer from the broker's pairing endpoint")
    }
  }

  /// Tries `pin` in `challenge`'s round (used up either way). On success checks the broker's
  /// own confirmation and returns the id.
  public func attempt(pin: String, challenge: Challenge) throws(PairingError) -> Attempt {
    let party = PairingProof.remote(
      pin: pin, brokerKey: challenge.brokerKey, remoteKey: publicKey,
      brokerNonce: challenge.nonce, remoteNonce: challenge.remoteNonce)
    guard let keys = party.finish(peerShare: challenge.share, peerData: PairingProof.brokerData)
    else { throw PairingError("the broker sent an invalid CPace share") }
    var proof = Tenfoot_V1_PairProof()
    proof.publicKey = .init(publicKey)
    proof.share = .init(party.share)
    proof.proof = .init(keys.ownTag)
    switch try exchange(.pairProof(proof)) {
    case .paired(let paired):
      guard PairingProof.equalInConstantTime([UInt8](paired.brokerProof), keys.peerTag) else {
        throw PairingError(
          "the broker accepted the PIN but could not prove it knew it: not trusting its key")
      }
      return .paired(id: paired.peerID)
    case .error(let error) where error.code == .pairingFailed || error.code == .pairingBackoff:
      return .refused(message: error.message, retryAfterMilliseconds: error.retryAfterMs)
    case .error(let error):
      throw PairingError("pairing failed: \(error.message)")
    default:
      throw PairingError("unexpected answer from the broker's pairing endpoint")
    }
  }

  private func exchange(_ body: Tenfoot_V1_Envelope.OneOf_Body) throws(PairingError)
    -> Tenfoot_V1_Envelope.OneOf_Body
  {
    do {
      return try connection.request(body, timeoutMilliseconds: timeoutMilliseconds)
    } catch {
      throw PairingError("\(error)")
    }
  }
}

/// A pairing failure, as a sentence for people.
public struct PairingError: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String
  /// For a back-off: how long to wait before trying again.
  public let retryAfterMilliseconds: UInt64?
  /// Creates an error.
  public init(_ description: String, retryAfterMilliseconds: UInt64? = nil) {
    self.description = description
    self.retryAfterMilliseconds = retryAfterMilliseconds
  }
}
