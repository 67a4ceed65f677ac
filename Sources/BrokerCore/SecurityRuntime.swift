import BrokerDomain
import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// The broker's security half, owned by the broker's loop thread: the ZAP handler on
/// `inproc://zeromq.zap.01`, the pairing socket, the allow-list and the pairing session.
/// `Broker` polls its sockets with the others, asks it whether each control message's
/// sender is still allowed, and which revoked keys it must cut off the state socket.
final class SecurityRuntime {
  static let zapEndpoint = "inproc://zeromq.zap.01"
  /// The topic screens receive pairing prompts on.
  static let pairingTopic = "pairing"

  private let settings: BrokerSecurity
  private let logger: Logger
  private let zap: Socket
  private let pairing: Socket
  private let store: any AllowListSource
  private var session: PairingSession
  private let brokerKey: [UInt8]
  private var nextReloadCheck = BrokerInstant.origin
  /// The time pairing, throttling, log limits and the allow-list re-check run at.
  private let clock: BrokerClock
  /// Sees the allow-list file replaced at once (nil without inotify: the timer still checks).
  private let allowListWatcher: FileChangeWatcher?
  /// Who ZAP admitted to the state socket, and which of them a revoke must cut off.
  private var revocation = Revocation()
  /// Keeps "peer refused" (a refused client retries every 100 ms) and pairing-flood lines to
  /// a few a second each.
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
  private(set) var boundPairingEndpoints: [String] = []

  /// Binds the ZAP handler (before any CURVE socket binds) and the pairing socket.
  init(settings: BrokerSecurity, context: Context, clock: BrokerClock, logger: Logger) throws {
    self.clock = clock
    self.settings = settings
    self.logger = logger
    store = try settings.allowList?() ?? AllowListStore(path: settings.allowListPath)
    allowListWatcher = store.watchedFile.flatMap { FileChangeWatcher(path: $0) }
    session = PairingSession(lifetime: .seconds(settings.pairingLifetimeSeconds))
    guardFile = PairingGuardFile(
      directory: (settings.allowListPath as NSString).deletingLastPathComponent)
    if let saved = try guardFile.loadIfChanged() { session.guardState = saved }
    guard let key = Z85.decode(settings.keyPair.publicKey), key.count == 32 else {
      throw StoreError.unreadable("broker key", "the public key is not a Z85 CURVE key")
    }
    brokerKey = key
    zap = try Socket(context, .reply)
    try zap.bind(Self.zapEndpoint)
    pairing = try Socket(context, .router)
    try pairing.setMaxMessageSize(4096)
    try pairing.setSendHighWaterMark(100)
    try pairing.setReceiveHighWaterMark(100)
    for endpoint in settings.pairingEndpoints {
      try pairing.bind(endpoint)
      boundPairingEndpoints.append(
        endpoint.hasPrefix("tcp://") ? try pairing.lastEndpoint : endpoint)
    }
    owners = store.list.screenOwners
    principals = Self.principals(of: store.list)
  }

  /// Makes `socket` a CURVE server that authenticates through the ZAP handler, in ZAP
  /// `domain` (the state socket has its own, so the handler knows who subscribes).
  func secure(_ socket: Socket, domain: String = ZapPolicy.domain) throws(ZeroMQError) {
    try socket.setZapDomain(domain)
    try socket.setCurveServer(secretKey: settings.keyPair.secretKey)
  }

  /// Serves the ZAP and pairing sockets (and reloads on the allow-list watcher) on `loop`;
  /// pairing prompts go out through `publish`. Without inotify, a timer looks at the
  /// allow-list file every 100 ms, so a revoke never waits for the next heartbeat.
  func register(
    in loop: EventLoop, publish: @escaping (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void
  ) {
    if let allowListWatcher {
      loop.whenReadable(fileDescriptor: allowListWatcher.fileDescriptor) { [unowned self] in
        allowListChanged()
      }
    }
    loop.whenReadable(zap) { [unowned self] in serveZap() }
    loop.whenReadable(pairing) { [unowned self] in servePairing(publish: publish) }
    if needsReloadTimer { checkAllowListEvery100Milliseconds(on: loop) }
  }

  private func checkAllowListEvery100Milliseconds(on loop: EventLoop) {
    loop.schedule(after: .milliseconds(100)) { [unowned self, unowned loop] in
      reloadIfDue(force: false)
      checkAllowListEvery100Milliseconds(on: loop)
    }
  }

  /// Whether the loop may sleep until its next heartbeat: with inotify a revoke wakes it;
  /// without (or with the allow-list in a zone's store), the loop must wake every 100 ms to
  /// look at it.
  var needsReloadTimer: Bool { allowListWatcher == nil }

  /// Reloads the allow-list now if the watcher saw it change.
  func allowListChanged() {
    if allowListWatcher?.drain() == true { reloadIfDue(force: true) }
  }

  /// The ids revoked since the last call that had been admitted to the state socket: the
  /// broker cuts the state socket's connections so they must pass ZAP again.
  func takeRevokedSubscribers() -> Set<String> {
    revocation.takeCut()  // Every publish asks: cheap when there is nothing to cut.
  }

  /// Answers every queued ZAP request.
  func serveZap() {
    for _ in 0..<64 {
      let frames: [[UInt8]]
      do {
        guard let received = try zap.receiveMultipart(dontWait: true) else { return }
        frames = received
      } catch {
        logger.warning("zap receive failed", metadata: ["error": "\(error)"])
        return
      }
      reloadIfDue(force: true)
      guard let request = ZapPolicy.Request(frames: frames) else {
        // A REP socket must answer: refuse with a well-formed reply if we can.
        let id = frames.count > 1 ? frames[1] : []
        send(
          zap,
          ZapPolicy.Decision(status: "500", text: "bad request", userID: "").frames(
            requestID: id))
        continue
      }
      let decision = ZapPolicy.decide(request, allowList: store.list)
      if decision.admitted {
        if request.domain == ZapPolicy.stateDomain {
          revocation.subscribed(PeerAccess(userID: decision.userID))
        }
        logger.debug(
          "peer admitted",
          metadata: [
            "peer.address": "\(request.address)", "peer.user": "\(decision.userID)",
            "zap.domain": "\(request.domain)",
          ])
      } else {
        logLimiter.log(
          .notice, "peer refused",
          metadata: [
            "peer.address": "\(request.address)", "reason": "\(decision.text)",
            "zap.domain": "\(request.domain)",
          ], to: logger, at: clock.now)
      }
      send(zap, decision.frames(requestID: request.requestID))
    }
  }

  /// Who sent a control message with this `User-Id`, as the rules see it; nil if its key is
  /// no longer on the allow-list (revoked). Allow-listed peers are re-checked against the
  /// current list (one `stat` of the file per message, about a microsecond; a zone's store asks
  /// PostgreSQL at most every 100 ms), so a revoke takes effect at once on open connections.
  func principal(for access: PeerAccess) -> Principal? {
    guard case .peer(let key) = access else { return .local }
    reloadIfDue(force: true)
    return principals[key]
  }

  /// The allow-list's peers by whole key in hex, as the rules see them: rebuilt when the list
  /// changes, so a message costs one dictionary lookup, not a scan decoding every key.
  private var principals: [String: Principal] = [:]

  /// `list`'s peers by key (see `principals`).
  private static func principals(of list: AllowList) -> [String: Principal] {
    var principals: [String: Principal] = [:]
    for entry in list.entries {
      let role: Principal.Role =
        switch entry.role {
        case .screen: .screen
        case .remote: .remote
        case .app: .app
        }
      let key = entry.keyHex
      principals[key] = Principal(
        id: entry.id, key: key, role: role, screens: entry.screens.map(Set.init))
    }
    return principals
  }

  /// Screen id → the hex key of the screen key that owns it (from the allow-list).
  private(set) var owners: [String: String] = [:]

  /// Binds `screen` to the screen key `key` on the allow-list (its first registration).
  func bind(screen: String, key: String) {
    do {
      try modifyAllowList { $0.bind(screen: screen, toKeyHex: key) }
      logger.notice("screen claimed", metadata: ["screen": "\(screen)", "peer.key": "\(key)"])
    } catch {
      logger.error(
        "cannot save the allow-list: screen ownership kept in memory only",
        metadata: ["screen": "\(screen)", "error": "\(error)"])
    }
  }

  /// Changes the allow-list and writes it, then treats what the write found as any reload: a
  /// revoke another process wrote just before (which `modify` read back) still cuts its peer.
  private func modifyAllowList<R>(_ change: (inout AllowList) -> R) throws(StoreError) -> R {
    let before = store.list
    let result = try store.modify(change)
    listChanged(from: before)
    return result
  }

  /// Runs the revoke diff and rebuilds the ownership map after the list changed.
  private func listChanged(from before: AllowList) {
    let removed = revocation.allowListChanged(
      before: Set(before.entries.map(\.keyHex)), after: Set(store.list.entries.map(\.keyHex)))
    owners = store.list.screenOwners
    principals = Self.principals(of: store.list)
    if !removed.isEmpty || before.entries.count != store.list.entries.count {
      logger.info(
        "allow-list reloaded",
        metadata: [
          "peers": "\(store.list.entries.count)", "peers.removed": "\(removed.sorted())",
        ])
    }
  }

  /// Periodic work: reload the allow-list if changed, end an expired pairing.
  func tick(now: BrokerInstant, publish: (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void) {
    reloadIfDue(force: false)
    for effect in session.tick(at: now) where effect == .hidePIN {
      logger.info("pairing expired")
      publish(Self.pairingTopic, .pairingPrompt(Tenfoot_V1_PairingPrompt()))
    }
  }

  /// Serves queued pairing requests.
  func servePairing(publish: (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void) {
    for _ in 0..<64 {
      let frames: [[UInt8]]
      let address: String
      do {
        guard
          let received = try pairing.receiveMultipartWithUserID(dontWait: true, peerAddress: true)
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
      let replyTo: UInt64
      let body: Tenfoot_V1_Envelope.OneOf_Body
      if frames.count != 2 {
        replyTo = 0
        body = .error(.init(.malformed, "expected exactly one frame (an Envelope)"))
      } else {
        do {
          let envelope = try Tenfoot_V1_Envelope.decode(frames[1])
          replyTo = envelope.seq
          body = handlePairing(envelope, from: address, publish: publish)
        } catch {
          replyTo = 0
          body = .error(.init(.malformed, error.description))
        }
      }
      replySeq += 1
      let reply = Tenfoot_V1_Envelope(
        sender: "broker", seq: replySeq, sentAtNanoseconds: clock.now.nanoseconds,
        replyTo: replyTo, body: body)
      do {
        try pairing.send(frames: [peer, reply.encoded()], dontWait: true)
      } catch {
        logger.warning("dropped pairing reply", metadata: ["error": "\(error)"])
      }
    }
  }

  /// Maps a pairing envelope to a domain request (refusing what cannot be one), lets the
  /// pairing session decide, carries its effects out and maps its reply back.
  private func handlePairing(
    _ envelope: Tenfoot_V1_Envelope, from address: String,
    publish: (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void
  ) -> Tenfoot_V1_Envelope.OneOf_Body {
    reloadGuardIfChanged()
    let request: PairingRequest
    var remoteKeyBytes: [UInt8] = []
    var brokerTag: [UInt8]?
    if !envelope.sender.isEmpty, let problem = TextRules.idProblem(envelope.sender) {
      return .error(.init(.malformed, "sender: " + problem))
    }
    switch envelope.body {
    case .pairRequest(let pair) where pair.publicKey.isEmpty:
      request = .probe
    case .pairRequest(let pair):
      guard pair.publicKey.count == 32, let key = Z85.encode([UInt8](pair.publicKey)) else {
        return .error(.init(.invalidInput, "public_key must be 32 bytes"))
      }
      guard PairingProof.nonceRange.contains(pair.nonce.count) else {
        return .error(.init(.invalidInput, "nonce must be 16 to 64 bytes"))
      }
      if let problem = PairingName.problem(pair.name) {
        return .error(.init(.invalidInput, "name: " + problem))
      }
      remoteKeyBytes = [UInt8](pair.publicKey)
      if pair.nextRound {
        guard let pin = session.pending?.pin else {
          return wire(.refused(.noPairing))
        }
        request = .nextRound(
          remoteKey: key,
          round: drawRound(pin: pin, remoteKey: remoteKeyBytes, remoteNonce: [UInt8](pair.nonce)))
      } else {
        let screen = pair.screenID.isEmpty ? nil : pair.screenID
        if let problem = pinShownNowhere(screen: screen) { return problem }
        let pin = PairingProof.randomPIN()
        request = .begin(
          remoteKey: key, name: PairingName.clean(pair.name), pin: pin,
          round: drawRound(pin: pin, remoteKey: remoteKeyBytes, remoteNonce: [UInt8](pair.nonce)),
          screen: screen)
      }
    case .pairProof(let proof):
      guard proof.publicKey.count == 32, let key = Z85.encode([UInt8](proof.publicKey)) else {
        return .error(.init(.invalidInput, "public_key must be 32 bytes"))
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
      return .error(
        .init(.unexpectedMessage, "the pairing socket answers only pair_request and pair_proof"))
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
    for effect in outcome.effects {
      if let refusal = carryOut(effect, publish: publish) { return refusal }
    }
    return wire(outcome.reply, brokerTag: brokerTag)
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
      prompt.sealed = screenKeys(for: pending.screen).compactMap { key in
        SealedPIN.seal(pending.pin, to: key).map { box in
          var sealed = Tenfoot_V1_SealedPin()
          sealed.screenKey = .init(Z85.decode(key) ?? [])
          sealed.box = .init(box)
          return sealed
        }
      }
      prompt.remoteName = pending.name
      prompt.brokerFingerprint = AllowList.id(of: settings.keyPair.publicKey)
      prompt.expiresInMs = expiresIn.wholeMillisecondsRoundedUp
      publish(Self.pairingTopic, .pairingPrompt(prompt))
    case .hidePIN:
      publish(Self.pairingTopic, .pairingPrompt(Tenfoot_V1_PairingPrompt()))
    case .allow(let key, let name):
      let entry = AllowList.Entry(
        publicKey: key, name: name, role: .remote, added: Date().timeIntervalSince1970)
      do {
        try modifyAllowList { $0.allow(entry) }
      } catch {
        logger.error("cannot save the allow-list", metadata: ["error": "\(error)"])
        return .error(.init(.unspecified, "the broker cannot save its allow-list: \(error)"))
      }
      logger.notice("paired", metadata: ["peer.id": "\(entry.id)", "peer.name": "\(entry.name)"])
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
          "pairing closed: too many wrong PINs; run tenfoot-broker pairing open",
          metadata: ["pairing.failures": "\(state.totalFailures)"])
      }
    }
    return nil
  }

  /// The Z85 keys of the screen keys that show a pairing's PIN: the owner of `screen`, or
  /// every screen key.
  private func screenKeys(for screen: String?) -> [String] {
    let screens = store.list.entries.filter { $0.role == .screen }
    guard let screen else { return screens.map(\.publicKey) }
    return screens.filter { $0.keyHex == owners[screen] }.map(\.publicKey)
  }

  /// A refusal when no screen key could show the PIN (nobody could read it).
  private func pinShownNowhere(screen: String?) -> Tenfoot_V1_Envelope.OneOf_Body? {
    guard screenKeys(for: screen).isEmpty else { return nil }
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

  /// Takes the guard from its file if someone else wrote it (`tenfoot-broker pairing open`).
  private func reloadGuardIfChanged() {
    do {
      if let saved = try guardFile.loadIfChanged() {
        if session.guardState.closed && !saved.closed {
          logger.notice("pairing opened by the operator")
        }
        session.guardState = saved
      }
    } catch {
      logLimiter.log(
        .error, "pairing guard unreadable; keeping the last one",
        metadata: ["store.path": "\(guardFile.path)", "error": "\(error)"], to: logger,
        at: clock.now)
    }
  }

  /// The wire form of a pairing reply (`brokerTag`: the broker's confirmation when the remote's
  /// verified).
  private func wire(_ reply: PairingReply, brokerTag: [UInt8]? = nil)
    -> Tenfoot_V1_Envelope.OneOf_Body
  {
    switch reply {
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
          "pairing is closed after too many wrong PINs: the operator opens it with "
            + "tenfoot-broker pairing open"))
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

  private func reloadIfDue(force: Bool) {
    let now = clock.now
    guard force || now >= nextReloadCheck else { return }
    nextReloadCheck = now + .milliseconds(100)
    do {
      let before = store.list  // A copy-on-write value: copying it here costs nothing.
      if try store.reloadIfChanged() { listChanged(from: before) }
    } catch {
      logLimiter.log(
        .error, "allow-list unreadable; keeping the last good one",
        metadata: ["store.path": "\(store.path)", "error": "\(error)"], to: logger, at: now)
    }
  }

  private func send(_ socket: Socket, _ frames: [[UInt8]]) {
    do {
      try socket.send(frames: frames)
    } catch {
      logger.warning("zap reply failed", metadata: ["error": "\(error)"])
    }
  }
}
