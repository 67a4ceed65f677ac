import TenFootSecurity

/// The one-time tokens of the phone remote's QR code: the screen shows one token at a time;
/// it lets one phone in (used up when that phone's page connects) and expires after
/// `lifetime` unused. Either way a fresh token replaces it, so the next phone scans the code
/// again. Pure: the caller passes the time.
struct PhoneTokens: Sendable {
  /// How long an unused token is good for.
  static let lifetime: Duration = .seconds(5 * 60)

  /// Why a token does not let a phone in.
  enum Refusal: Error, Equatable, CustomStringConvertible {
    /// Already used by a phone.
    case used
    /// Shown more than `lifetime` ago and never used.
    case expired
    /// Never issued by this screen (mistyped, or from an earlier run).
    case unknown
    /// A session that ended (its key revoked, or its pairing failed): a page that lost its
    /// socket and comes back with the session's secret is told so, not "unknown".
    case ended

    /// A sentence for the phone's page.
    var description: String {
      switch self {
      case .used:
        "This code was already used: each code lets one phone in. Scan the code the screen shows now."
      case .expired:
        "This code has expired (codes last 5 minutes). Scan the code the screen shows now."
      case .unknown: "This link is not one this screen gave out. Scan the code the screen shows."
      case .ended:
        "disconnected: this phone's session ended (its key was revoked, or pairing failed). "
          + "Scan the screen's code again to reconnect."
      }
    }
  }

  private struct Issued: Sendable {
    var token: String
    var at: ContinuousClock.Instant
  }

  private var current: Issued
  /// Tokens used or expired, remembered so a second open says why (bounded).
  private var spent: [String: Refusal] = [:]
  private var order: [String] = []
  private let makeToken: @Sendable () -> String

  /// Issues the first token at `now`; `makeToken` makes each token (random by default).
  init(
    now: ContinuousClock.Instant,
    makeToken: @escaping @Sendable () -> String = { Hex.encode(PairingProof.randomBytes(16)) }
  ) {
    self.makeToken = makeToken
    current = Issued(token: makeToken(), at: now)
  }

  /// The token to show at `now` (a fresh one if the last expired); `changed` says whether it
  /// is new since the last call.
  mutating func token(at now: ContinuousClock.Instant) -> (token: String, changed: Bool) {
    guard current.at.duration(to: now) >= Self.lifetime else { return (current.token, false) }
    retire(current.token, .expired)
    current = Issued(token: makeToken(), at: now)
    return (current.token, true)
  }

  /// Whether `token` would let a phone in at `now`, without using it.
  func check(_ token: String, at now: ContinuousClock.Instant) -> Refusal? {
    if let refusal = spent[token] { return refusal }
    guard PairingProof.equalInConstantTime(Array(token.utf8), Array(current.token.utf8)) else {
      return .unknown
    }
    return current.at.duration(to: now) >= Self.lifetime ? .expired : nil
  }

  /// Uses `token` at `now`: nil when it let the phone in (a fresh token is issued), else why
  /// not.
  mutating func use(_ token: String, at now: ContinuousClock.Instant) -> Refusal? {
    if let refusal = check(token, at: now) {
      if refusal == .expired { _ = self.token(at: now) }
      return refusal
    }
    retire(token, .used)
    current = Issued(token: makeToken(), at: now)
    return nil
  }

  private mutating func retire(_ token: String, _ reason: Refusal) {
    spent[token] = reason
    order.append(token)
    if order.count > 256 { spent[order.removeFirst()] = nil }
  }
}
