import BrokerDomain
import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// The pairing socket: a remote without a key on the allow-list asks to pair, the PIN is
/// sealed to the screen keys that show it, and two CPace rounds prove the remote's person
/// read it. The rules (one pairing at a time, expiry, back-off, the guard that closes pairing
/// after too many wrong PINs) are `PairingSession`'s; this maps the wire to its requests,
/// draws the CPace rounds (randomness and the broker's key: not the domain's business), and
/// carries its effects out (prompts, the allow-list write, the guard file).
final class PairingServer {
  /// The topic screens receive pairing prompts on.
  static let topic = "pairing"

  let socket: Socket
  private let allowList: AllowListKeeper
  private let logger: Logger
  private let clock: BrokerClock
  private(set) var session: PairingSession
  /// The broker's public key: raw for CPace, Z85 for the fingerprint screens show.
  let brokerKey: [UInt8]
  private let brokerPublicKey: String
  private var logLimiter = LogLimiter()
  private var replySeq: UInt64 = 0
  /// Pairing requests per source address (not per connection: one host can open hundreds): a
  /// person pairs a remote a few times a minute at most, so 5 a second (bursts of 10) is
  /// generous; more are dropped unanswered, with a log line.
  private var pairingThrottle = PeerThrottle(rate: 5, burst: 10)
  /// Pairing requests from all addresses together: 20 a second (bursts of 40).
  private var pairingTotal = PeerThrottle(rate: 20, burst: 40)
  /// Where the wrong-PIN counts are kept across restarts.
  private let guardFile: PairingGuardFile
  /// The pairing endpoints actually bound.
  private(set) var boundEndpoints: [String] = []

  /// Binds the pairing socket to `settings`' endpoints; the guard's counts come from the file
  /// beside the allow-list.
  init(
    settings: BrokerSecurity, context: Context, allowList: AllowListKeeper, clock: BrokerClock,
    logger: Logger
  ) throws {
    self.allowList = allowList
    self.clock = clock
    self.logger = logger
    session = PairingSession(lifetime: .seconds(settings.pairingLifetimeSeconds))
    guardFile = PairingGuardFile(
      directory: (settings.allowListPath as NSString).deletingLastPathComponent)
    if let saved = try guardFile.loadIfChanged() { session.guardState = saved }
    guard let key = Z85.decode(settings.keyPair.publicKey), key.count == 32 else {
      throw StoreError.unreadable("broker key", "the public key is not a Z85 CURVE key")
    }
    brokerKey = key
    brokerPublicKey = settings.keyPair.publicKey
    socket = try Socket(context, .router)
    try socket.setMaxMessageSize(4096)
    try socket.setSendHighWaterMark(100)
    try socket.setReceiveHighWaterMark(100)
    for endpoint in settings.pairingEndpoints {
      try socket.bind(endpoint)
      boundEndpoints.append(endpoint.hasPrefix("tcp://") ? try socket.lastEndpoint : endpoint)
    }
  }

  /// When the guard file was last looked at from `tick`.
  private var guardChecked = BrokerInstant.origin

  /// Ends an expired pairing (its prompt is withdrawn from the screens), takes the guard file
  /// if the operator wrote it (looked at once a second), and tells the screens again while
  /// pairing is closed.
  func tick(now: BrokerInstant, publish: (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void) {
    if guardChecked.duration(to: now) >= .seconds(1) {
      guardChecked = now
      reloadGuardIfChanged(publish: publish)
    }
    for effect in session.tick(at: now) {
      if effect == .hidePIN { logger.info("pairing expired") }
      _ = carryOut(effect, publish: publish)
    }
  }

  /// Someone at screen `screen` opens pairing again with the screen's key (`open_pairing` on
  /// the control socket); `registered`: the broker's sessions. The rule is
  /// `PairingSession.openAtScreen`'s; this carries its effects out and maps its reply.
  func openAtScreen(
    _ screen: String, by principal: Principal, registered: [String],
    publish: (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void
  ) -> Tenfoot_V1_Envelope.OneOf_Body {
    reloadGuardIfChanged(publish: publish)
    let outcome = session.openAtScreen(
      screen, by: principal, owners: allowList.owners, registered: registered)
    if case .opened(let screen, wasClosed: true) = outcome.reply {
      logger.notice(
        "pairing opened at a screen",
        metadata: ["screen": "\(screen)", "peer.id": "\(principal.id)"])
    }
    for effect in outcome.effects { _ = carryOut(effect, publish: publish) }
    return outcome.reply.wire(brokerKey: brokerKey)
  }

  /// Serves queued pairing requests.
  func serve(publish: (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void) {
    for _ in 0..<64 {
      let frames: [[UInt8]]
      let address: String
      do {
        guard
          let received = try socket.receiveMultipartWithUserID(dontWait: true, peerAddress: true)
        else { return }
        frames = received.frames
        address = received.address ?? ""
      } catch {
        logger.warning("pairing receive failed", metadata: ["error": "\(error)"])
        return
      }
      guard let peer = frames.first else { continue }
      guard pairingThrottle.admit(Array(address.utf8), at: clock.now),
        pairingTotal.admit([], at: clock.now)
      else {
        logLimiter.log(
          .warning, "dropped pairing request: over the rate per address or in all",
          metadata: [
            "peer.address": "\(address)",
            "refused": "\(pairingThrottle.refused(Array(address.utf8)))",
          ], to: logger, at: clock.now)
        continue
      }
      guard frames.count == 2 else {
        reply(
          to: peer, replyTo: 0,
          .error(.init(.malformed, "expected exactly one frame (an Envelope)")))
        continue
      }
      let envelope: Tenfoot_V1_Envelope
      do {
        envelope = try Tenfoot_V1_Envelope.decode(frames[1])
      } catch {
        reply(to: peer, replyTo: 0, .error(.init(.malformed, error.description)))
        continue
      }
      switch handlePairing(envelope, from: address, publish: publish) {
      case .reply(let body): reply(to: peer, replyTo: envelope.seq, body)
      case .afterWrite(let entry, let body):
        allow(entry, thenReply: body, to: peer, replyTo: envelope.seq)
      }
    }
  }

  /// How a pairing request is answered: now, or once the new key is on the allow-list.
  private enum Handled {
    case reply(Tenfoot_V1_Envelope.OneOf_Body)
    /// Paired: `reply` goes out once `entry` is written (durable), a typed error if the write
    /// fails. The remote connects right after the reply, so ZAP must already find its key.
    case afterWrite(AllowList.Entry, reply: Tenfoot_V1_Envelope.OneOf_Body)
  }

  /// Writes `entry` and answers `peer` when the write is durable: with `body`, or with
  /// `STORE_UNAVAILABLE` if it failed. A zone's write goes out without waiting: the loop goes
  /// on serving meanwhile.
  private func allow(
    _ entry: AllowList.Entry, thenReply body: Tenfoot_V1_Envelope.OneOf_Body, to peer: [UInt8],
    replyTo: UInt64
  ) {
    allowList.modify({ $0.allow(entry) }) { [unowned self] result in
      switch result {
      case .success:
        logger.notice("paired", metadata: ["peer.id": "\(entry.id)", "peer.name": "\(entry.name)"])
        reply(to: peer, replyTo: replyTo, body)
      case .failure(let error):
        logger.error("cannot save the allow-list", metadata: ["error": "\(error)"])
        reply(
          to: peer, replyTo: replyTo,
          .error(.init(.storeUnavailable, "the broker cannot save its allow-list: \(error)")))
      }
    }
  }

  /// Sends `body` to `peer` as the reply to its request `replyTo`.
  private func reply(to peer: [UInt8], replyTo: UInt64, _ body: Tenfoot_V1_Envelope.OneOf_Body) {
    replySeq += 1
    let reply = Tenfoot_V1_Envelope(
      sender: "broker", seq: replySeq, sentAtNanoseconds: clock.now.nanoseconds,
      replyTo: replyTo, body: body)
    do {
      try socket.send(frames: [peer, reply.encoded()], dontWait: true)
    } catch {
      logger.warning("dropped pairing reply", metadata: ["error": "\(error)"])
    }
  }

  /// Maps a pairing envelope to a domain request (refusing what cannot be one), lets the
  /// pairing session decide, carries its effects out and maps its reply back.
  private func handlePairing(
    _ envelope: Tenfoot_V1_Envelope, from address: String,
    publish: (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void
  ) -> Handled {
    reloadGuardIfChanged(publish: publish)
    let request: PairingRequest
    let brokerTag: [UInt8]?
    switch pairingRequest(envelope, from: address) {
    case .failure(let refusal): return .reply(refusal.body)
    case .success(let mapped): (request, brokerTag) = mapped
    }
    let outcome = session.handle(request, from: address, at: clock.now)
    if case .refused(.wrongPIN) = outcome.reply, case .prove(let key, _) = request {
      logger.notice(
        "pairing refused: wrong PIN",
        metadata: [
          "peer.key": "\(AllowList.id(of: key))", "peer.address": "\(address)",
          "pairing.failures": "\(session.guardState.totalFailures)",
          "pairing.closed": "\(session.guardState.closed)",
        ])
    }
    var allowed: AllowList.Entry?
    for effect in outcome.effects {
      if case .allow(let key, let name) = effect {
        allowed = AllowList.Entry(
          publicKey: key, name: name, role: .remote, added: Date().timeIntervalSince1970)
        continue
      }
      if let refusal = carryOut(effect, publish: publish) { return .reply(refusal) }
    }
    let reply = outcome.reply.wire(brokerKey: brokerKey, brokerTag: brokerTag)
    return allowed.map { .afterWrite($0, reply: reply) } ?? .reply(reply)
  }

  /// Carries out one pairing effect; returns the reply to send instead if it failed.
  private func carryOut(
    _ effect: PairingEffect, publish: (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void
  ) -> Tenfoot_V1_Envelope.OneOf_Body? {
    switch effect {
    case .showPIN(let pending, let expiresIn):
      logger.notice(
        "pairing started",
        metadata: [
          "peer.name": "\(pending.name)", "peer.key": "\(AllowList.id(of: pending.remoteKey))",
        ])
      var prompt = Tenfoot_V1_PairingPrompt()
      prompt.active = true
      // Never the PIN itself: every admitted subscriber reads this topic.
      prompt.sealed = allowList.screenKeys(for: pending.screen).compactMap { key in
        SealedPIN.seal(pending.pin, to: key).map { box in
          var sealed = Tenfoot_V1_SealedPin()
          sealed.screenKey = .init(Z85.decode(key) ?? [])
          sealed.box = .init(box)
          return sealed
        }
      }
      prompt.remoteName = pending.name
      prompt.brokerFingerprint = AllowList.id(of: brokerPublicKey)
      prompt.expiresInMs = expiresIn.wholeMillisecondsRoundedUp
      publish(Self.topic, .pairingPrompt(prompt))
    case .hidePIN:
      publish(Self.topic, .pairingPrompt(Tenfoot_V1_PairingPrompt()))
    case .announceClosed(let closed):
      // No secret: every admitted subscriber may read that pairing is closed.
      var prompt = Tenfoot_V1_PairingPrompt()
      prompt.closed = closed
      publish(Self.topic, .pairingPrompt(prompt))
    case .allow:
      break  // Written by `handlePairing`'s caller, which answers the proof once it is durable.
    case .saveGuard(let state):
      do {
        try guardFile.save(state)
      } catch {
        logger.error(
          "cannot save the pairing guard: the counts are kept in memory only",
          metadata: ["store.path": "\(guardFile.path)", "error": "\(error)"])
      }
      if state.closed {
        logger.warning(
          "pairing closed: too many wrong PINs; open it at a screen (tenfoot-screen pairing open) or run tenfoot-broker pairing open",
          metadata: ["pairing.failures": "\(state.totalFailures)"])
      }
    }
    return nil
  }

  /// A refusal when no screen key could show the PIN (nobody could read it).
  func pinShownNowhere(screen: String?) -> Tenfoot_V1_Envelope.OneOf_Body? {
    guard allowList.screenKeys(for: screen).isEmpty else { return nil }
    if let screen {
      return .error(
        .init(
          .unknownScreen,
          "no screen key owns screen \"\(screen)\": start that screen (allowed by key) first"))
    }
    return .error(
      .init(
        .unknownScreen,
        "no screen key is on the allow-list to show the PIN: allow a screen first "
          + "(tenfoot-broker remotes add --role screen)"))
  }

  /// Takes the guard from its file if someone else wrote it (`tenfoot-broker pairing open`);
  /// the screens hear if that opened or closed pairing.
  private func reloadGuardIfChanged(publish: (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void) {
    do {
      if let saved = try guardFile.loadIfChanged() {
        if session.guardState.closed && !saved.closed {
          logger.notice("pairing opened by the operator")
        }
        for effect in session.adopt(saved, at: clock.now) { _ = carryOut(effect, publish: publish) }
      }
    } catch {
      logLimiter.log(
        .error, "pairing guard unreadable; keeping the last one",
        metadata: ["store.path": "\(guardFile.path)", "error": "\(error)"], to: logger,
        at: clock.now)
    }
  }
}
