import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// The remote's side of pairing, over the broker's pairing endpoint (plain ZeroMQ: the remote
/// is not on the allow-list yet), waiting for each reply (`PairingMessages` makes and reads
/// the messages). The PIN never leaves this process: each attempt is one CPace round (see
/// `PairingProof`), whose messages let no one test a PIN offline.
public final class PairingClient {
  private let connection: ControlConnection
  let trust: ClientTrust
  private var messages: PairingMessages
  /// The screen that shows the PIN (nil: every screen key).
  public var screen: String? {
    get { messages.screen }
    set { messages.screen = newValue }
  }
  private let timeout: Duration

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
    /// Wrong PIN (or still backing off): wait `retryAfter` before the next attempt.
    case refused(message: String, retryAfter: Duration)
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
    messages = try PairingMessages(publicKey: trust.keyPair.publicKey, name: name)
    self.trust = trust
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
    let (body, remoteNonce) = messages.roundRequest(next: next)
    return try PairingMessages.challenge(from: try exchange(body), remoteNonce: remoteNonce)
  }

  /// Tries `pin` in `challenge`'s round (used up either way). On success checks the broker's
  /// own confirmation and returns the id.
  public func attempt(pin: String, challenge: Challenge) throws(PairingError) -> Attempt {
    let (body, brokerTag) = try messages.proof(pin: pin, challenge: challenge)
    return try PairingMessages.attempt(from: try exchange(body), brokerTag: brokerTag)
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
  case refused(BrokerRefusal)
  /// The broker accepted the PIN but its own proof does not check: its key is not trusted.
  case brokerProofInvalid
  /// The broker ended the pairing with a refusal.
  case failed(BrokerRefusal)
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
