/// A request on the pairing endpoint, in the domain's terms.
public enum PairingRequest: Sendable, Equatable {
  /// A remote whose pinned key no longer works asks which key the broker has now (so it can
  /// say "the broker's key changed" rather than "no answer"). Starts no pairing.
  case probe
  /// A remote asks to pair with its public key (Z85) and name; the runtime draws the PIN and
  /// the first CPace round (randomness comes in as data).
  case begin(
    remoteKey: String, name: String, pin: String, round: PairingRound, screen: String? = nil)
  /// The remote of the pairing in progress asks for another round (same PIN), drawn by the
  /// runtime for `PairingSession.pending`'s PIN.
  case nextRound(remoteKey: String, round: PairingRound)
  /// A remote's key confirmation: whether it matched `PairingSession.pending`'s round (the
  /// runtime runs CPace, the domain decides).
  case prove(remoteKey: String, proofMatches: Bool)
}

/// The pairing endpoint's answer, in the domain's terms.
public enum PairingReply: Sendable, Equatable {
  /// The broker's public key (the answer to a probe).
  case brokerKey
  /// Type the PIN the screens show; the round and the PIN's length, valid for `expiresIn`.
  case challenge(PairingSession.Pending, expiresIn: Duration)
  /// Paired: the pairing that succeeded (for the broker's own proof).
  case paired(PairingSession.Pending)
  /// Pairing is open (again) at `screen`'s request; `wasClosed`: it had closed.
  case opened(screen: String, wasClosed: Bool)
  /// Refused.
  case refused(PairingRefusal)
}

/// Why a pairing step was refused, with its cause.
public enum PairingRefusal: Error, Sendable, Equatable {
  /// Too many wrong PINs recently: wait this long.
  case backoff(retryAfter: Duration)
  /// Another key's pairing is in progress (not replaced): it ends within this long.
  case busy(retryAfter: Duration)
  /// Pairing is closed: for this address until a failure decays (this long), or for everyone
  /// until the operator opens it (nil).
  case closed(retryAfter: Duration?)
  /// The proof did not match: blocked for this long.
  case wrongPIN(retryAfter: Duration)
  /// No pairing in progress for this key (never begun, expired, or replaced).
  case noPairing
  /// The round already answered a confirmation: ask for the next round.
  case roundUsed
  /// The principal may not open pairing at this screen (not a screen key, or not its owner).
  case forbidden(AccessRefusal)
  /// No session has this id now (the registered ones, sorted).
  case unknownScreen(String, known: [String])
}

/// One CPace round of a pairing, drawn by the runtime: both sides' nonces (the session id is
/// the broker's nonce then the remote's), the broker's secret scalar and its public share.
/// Opaque bytes here; TenFootSecurity's `CPaceParty` gives them meaning.
public struct PairingRound: Sendable, Equatable {
  /// The broker's fresh nonce.
  public var nonce: [UInt8]
  /// The remote's fresh nonce.
  public var remoteNonce: [UInt8]
  /// The broker's secret scalar for this round (never sent).
  public var secret: [UInt8]
  /// The broker's share, `secret * generator(PIN, keys, nonces)`.
  public var share: [UInt8]

  /// A round.
  public init(nonce: [UInt8], remoteNonce: [UInt8], secret: [UInt8], share: [UInt8]) {
    self.nonce = nonce
    self.remoteNonce = remoteNonce
    self.secret = secret
    self.share = share
  }
}

/// Work the runtime carries out for a pairing step, in order.
public enum PairingEffect: Sendable, Equatable {
  /// Show this PIN (and the remote's name) on every screen, for `expiresIn`.
  case showPIN(PairingSession.Pending, expiresIn: Duration)
  /// Hide the PIN (paired, replaced or expired).
  case hidePIN
  /// Put the remote's key on the allow-list, under its name (before the reply is sent: if
  /// that fails the remote is told and must pair again).
  case allow(remoteKey: String, name: String)
  /// Save the failure counts (they must survive a restart).
  case saveGuard(PairingGuard)
  /// Tell the screens whether pairing is closed: true shows the notice (too many wrong PINs,
  /// and how to open pairing at the screen) and hides any PIN; false withdraws it.
  case announceClosed(Bool)
}

extension PairingSession {
  /// What one pairing step produced.
  public struct Outcome: Sendable, Equatable {
    /// The reply to the remote.
    public var reply: PairingReply
    /// Work for the runtime, before the reply.
    public var effects: [PairingEffect] = []

    /// An outcome.
    public init(reply: PairingReply, effects: [PairingEffect] = []) {
      self.reply = reply
      self.effects = effects
    }
  }

  /// Handles one pairing request that arrived at `now` from the source address `address`:
  /// refused while pairing is closed (for everyone, or for this address).
  public mutating func handle(
    _ request: PairingRequest, from address: String = "", at now: BrokerInstant
  ) -> Outcome {
    decay(at: now)
    if request != .probe, let refusal = refusal(for: address, at: now) {
      return Outcome(reply: .refused(refusal))
    }
    var outcome = handleOpen(request, at: now)
    switch outcome.reply {
    case .refused(.wrongPIN):
      let wasClosed = guardState.closed
      countFailure(from: address, at: now)
      outcome.effects.append(.saveGuard(guardState))
      if guardState.closed && !wasClosed {
        closedAnnounced = now
        outcome.effects.append(.announceClosed(true))  // Its prompt also hides the PIN.
      }
    case .paired:
      outcome.effects.append(.saveGuard(guardState))
    default: break
    }
    return outcome
  }

  private mutating func handleOpen(_ request: PairingRequest, at now: BrokerInstant) -> Outcome {
    switch request {
    case .probe:
      return Outcome(reply: .brokerKey)
    case .begin(let remoteKey, let name, let pin, let round, let screen):
      switch begin(
        remoteKey: remoteKey, name: name, at: now, pin: pin, round: round, screen: screen)
      {
      case .busy(let wait): return Outcome(reply: .refused(.busy(retryAfter: wait)))
      case .backoff(let wait): return Outcome(reply: .refused(.backoff(retryAfter: wait)))
      case .challenge(let pending):
        return Outcome(
          reply: .challenge(pending, expiresIn: lifetime),
          effects: [.showPIN(pending, expiresIn: lifetime)])
      }
    case .nextRound(let remoteKey, let round):
      switch nextRound(remoteKey: remoteKey, at: now, round: round) {
      case nil: return Outcome(reply: .refused(.noPairing))
      case .backoff(let wait), .busy(let wait):
        return Outcome(reply: .refused(.backoff(retryAfter: wait)))
      case .challenge(let pending):
        return Outcome(reply: .challenge(pending, expiresIn: now.duration(to: pending.expiresAt)))
      }
    case .prove(let remoteKey, let proofMatches):
      switch prove(remoteKey: remoteKey, proofMatches: proofMatches, at: now) {
      case .backoff(let wait): return Outcome(reply: .refused(.backoff(retryAfter: wait)))
      case .wrongPIN(let wait): return Outcome(reply: .refused(.wrongPIN(retryAfter: wait)))
      case .noPairing: return Outcome(reply: .refused(.noPairing))
      case .roundUsed: return Outcome(reply: .refused(.roundUsed))
      case .paired(let pending):
        return Outcome(
          reply: .paired(pending),
          effects: [.allow(remoteKey: pending.remoteKey, name: pending.name), .hidePIN])
      }
    }
  }

  /// Periodic work at `now`: a pairing that expired hides its PIN; while pairing is closed, the
  /// screens are told so again every `closedNoticeInterval`.
  public mutating func tick(at now: BrokerInstant) -> [PairingEffect] {
    var effects: [PairingEffect] = expire(at: now) ? [.hidePIN] : []
    if guardState.closed,
      closedAnnounced.map({ $0.duration(to: now) >= Self.closedNoticeInterval }) ?? true
    {
      closedAnnounced = now
      effects.append(.announceClosed(true))
    }
    return effects
  }
}
