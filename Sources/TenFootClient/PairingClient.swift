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
  /// The screen that shows the PIN (nil: every screen key).
  public var screen: String?
  private let timeout: Duration
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
    timeout: Duration
  ) throws(PairingError) {
    do {
      connection = try ControlConnection(
        context: context, endpoint: pairingEndpoint, sender: "pair")
    } catch {
      throw .cannotConnect(endpoint: pairingEndpoint, cause: error)
    }
    guard let key = Z85.decode(trust.keyPair.publicKey) else {
      throw .invalidOwnKey
    }
    publicKey = key
    self.trust = trust
    self.name = name
    self.timeout = timeout
  }

  /// Asks only for the broker's current public key (Z85), starting no pairing.
  public func probeKey() throws(PairingError) -> String {
    switch try exchange(.pairRequest(Tenfoot_V1_PairRequest())) {
    case .pairChallenge(let challenge):
      guard challenge.brokerKey.count == 32, let text = Z85.encode([UInt8](challenge.brokerKey))
      else { throw .unusableChallenge }
      return text
    default:
      throw .unexpectedReply
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
    if let screen { request.screenID = screen }
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
        throw .unusableChallenge
      }
      return Challenge(
        nonce: [UInt8](challenge.nonce), remoteNonce: remoteNonce,
        share: [UInt8](challenge.share), brokerKey: key, brokerKeyText: text,
        digits: Int(challenge.pinDigits))
    case .error(let error):
      throw .refused(error)
    default:
      throw .unexpectedReply
    }
  }

  /// Tries `pin` in `challenge`'s round (used up either way). On success checks the broker's
  /// own confirmation and returns the id.
  public func attempt(pin: String, challenge: Challenge) throws(PairingError) -> Attempt {
    let party = PairingProof.remote(
      pin: pin, brokerKey: challenge.brokerKey, remoteKey: publicKey,
      brokerNonce: challenge.nonce, remoteNonce: challenge.remoteNonce)
    guard let keys = party.finish(peerShare: challenge.share, peerData: PairingProof.brokerData)
    else { throw .unusableChallenge }
    var proof = Tenfoot_V1_PairProof()
    proof.publicKey = .init(publicKey)
    proof.share = .init(party.share)
    proof.proof = .init(keys.ownTag)
    switch try exchange(.pairProof(proof)) {
    case .paired(let paired):
      guard PairingProof.equalInConstantTime([UInt8](paired.brokerProof), keys.peerTag) else {
        throw .brokerProofInvalid
      }
      return .paired(id: paired.peerID)
    case .error(let error) where error.code == .pairingFailed || error.code == .pairingBackoff:
      return .refused(message: error.message, retryAfterMilliseconds: error.retryAfterMs)
    case .error(let error):
      throw .failed(error)
    default:
      throw .unexpectedReply
    }
  }

  private func exchange(_ body: Tenfoot_V1_Envelope.OneOf_Body) throws(PairingError)
    -> Tenfoot_V1_Envelope.OneOf_Body
  {
    do {
      return try connection.request(body, timeout: timeout)
    } catch {
      throw .request(error)
    }
  }
}

/// A pairing failure, with its cause; `description` says what went wrong.
public enum PairingError: Error, CustomStringConvertible {
  /// The pairing socket could not be created or connected.
  case cannotConnect(endpoint: String, cause: ZeroMQError)
  /// This remote's own key file holds no valid public key.
  case invalidOwnKey
  /// The broker's challenge (its key, its nonce, its CPace share) is unusable.
  case unusableChallenge
  /// The broker refused to start a pairing.
  case refused(Tenfoot_V1_Error)
  /// The broker accepted the PIN but its own proof does not check: its key is not trusted.
  case brokerProofInvalid
  /// The broker ended the pairing with an error.
  case failed(Tenfoot_V1_Error)
  /// The pairing endpoint answered with a reply of the wrong kind.
  case unexpectedReply
  /// The request got no usable answer.
  case request(ControlError)

  /// What went wrong.
  public var description: String {
    switch self {
    case .cannotConnect(let endpoint, let cause): "cannot connect to \(endpoint): \(cause)"
    case .invalidOwnKey: "this remote's key file holds no valid public key"
    case .unusableChallenge: "the broker sent an unusable challenge"
    case .refused(let error): "the broker refused to pair: \(error.message)"
    case .brokerProofInvalid:
      "the broker accepted the PIN but could not prove it knew it: not trusting its key"
    case .failed(let error): "pairing failed: \(error.message)"
    case .unexpectedReply: "unexpected answer from the broker's pairing endpoint"
    case .request(.nothingListening(let endpoint)):
      "nothing is listening at the pairing endpoint \(endpoint) (connection refused): it is the "
        + "control port + 2 unless --pairing says otherwise; check the port you gave, or use the "
        + "line tenfoot-broker invite prints (--broker)"
    case .request(let error): "\(error)"
    }
  }
}
