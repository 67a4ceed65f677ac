import BrokerDomain
import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TenFootSecurity
import TenFootStore
import ZeroMQ

/// The broker's socket loop: one thread owns the control ROUTER and the state PUB, decodes
/// each request, hands it to the domain (through `WireBroker`, which maps the wire) and
/// carries out what it returns: records persisted, then publications, then the reply.
///
/// Create and `run()` it on the same thread (sockets belong to one thread); stop it from any
/// thread with `stopper`. `run()` runs an `EventLoop` on that thread.
public final class Broker {
  let configuration: BrokerConfiguration
  let logger: Logger
  /// For the monitor a revoke's cut-off watches the state socket with.
  let context: Context
  let control: Socket
  let state: Socket
  /// The broker's rules and sessions behind the wire mapping.
  var core: WireBroker
  /// The seq of the broker's last reply or publication.
  var sentCount: UInt64 = 0
  /// The buffer each reply and publication is encoded into, reused (zmq_send copies it).
  var outgoing = WireWriter()
  /// CURVE, ZAP and pairing, when the broker is configured with security.
  let security: SecurityRuntime?
  /// Durable per-screen focus and selections, when the broker has a data directory.
  /// Group commit of each loop iteration's requests to the session store, when the broker
  /// has a data directory.
  let group: GroupCommit?
  /// Per-peer flood control.
  private var throttle: PeerThrottle
  /// Keeps bad-input log lines to a few per second.
  private var logLimiter = LogLimiter()
  /// State endpoints a cut could not bind again; retried on every heartbeat.
  var lostStateEndpoints: [String] = []
  /// The state cut in progress, if any (`Broker+StateCut`).
  var stateCut: StateCut?
  /// Stops `run()` from any thread.
  public let stopper: LoopStopper
  /// Prepares large messages off the loop (see `Broker+Preparation`).
  let worker: PreparationWorker
  /// Each connection's messages waiting behind its large ones, and the bytes in flight.
  var preparation: PreparationLedger<(frames: [[UInt8]], access: PeerAccess)>
  /// Each connection's message sent in parts, until it is whole (see `Broker+Parts`).
  var parts: PartAssembly<[UInt8]>
  /// The endpoints actually bound (wildcard TCP ports resolved), control first.
  public private(set) var boundControlEndpoints: [String] = []
  /// The state endpoints actually bound.
  public private(set) var boundStateEndpoints: [String] = []
  /// The pairing endpoints actually bound (empty without security).
  public var boundPairingEndpoints: [String] { security?.boundPairingEndpoints ?? [] }
  /// The epoch this broker announces.
  public var epoch: UInt64 { core.domain.epoch }

  /// Creates the sockets and binds every endpoint. Throws if any endpoint cannot be bound
  /// (`ZeroMQError`), the allow-list cannot be read (`StoreError`) or the session store cannot
  /// be opened (`SessionStoreError`).
  public init(configuration: BrokerConfiguration, context: Context, logger: Logger) throws {
    self.configuration = configuration
    self.logger = logger
    self.context = context
    let epoch = configuration.epoch ?? UInt64(Date().timeIntervalSince1970 * 1_000_000)
    stopper = try LoopStopper()
    worker = PreparationWorker(waker: stopper.waker)
    preparation = PreparationLedger(
      bytesPerBudget: configuration.preparationBytesPerPeer,
      bytesTotal: configuration.preparationBytesTotal,
      queuedPerConnection: configuration.queuedBehindPreparation)
    parts = PartAssembly(
      maxBytes: configuration.maxWholeMessageSize, totalBytes: configuration.partBytesTotal,
      maxParts: UInt32(MessageParts.maxParts), deadline: configuration.partDeadline)
    throttle = PeerThrottle(
      rate: configuration.peerRate, burst: configuration.peerBurst,
      byteRate: configuration.peerByteRate, byteBurst: configuration.peerByteBurst)
    let persistence = try
      (configuration.sessionStore?()
      ?? configuration.sessionStoreDirectory.map { try SessionStore(directory: $0, logger: logger) })
      .map(SessionPersistence.init(store:))
    let waker = stopper.waker
    group = persistence.map {
      GroupCommit(
        persistence: $0, clock: configuration.clock, logger: logger, waker: waker,
        backlogLimit: (configuration.commitBacklogMessages, configuration.commitBacklogBytes))
    }
    core = WireBroker(
      epoch: epoch, name: configuration.name, screensPerKey: configuration.screensPerKey,
      records: persistence?.records)
    // The ZAP handler must be bound before any CURVE socket accepts a connection.
    security = try configuration.security.map {
      try SecurityRuntime(
        settings: $0, context: context, quarantine: configuration.quarantine,
        clock: configuration.clock, logger: logger, waker: waker)
    }
    control = try Socket(context, .router)
    try security?.secure(control)
    try control.setMaxMessageSize(configuration.maxMessageSize)
    try control.setRouterHandover(true)
    try control.setHeartbeat(intervalMilliseconds: 1000, timeoutMilliseconds: 5000)
    try control.setSendHighWaterMark(10_000)
    try control.setReceiveHighWaterMark(configuration.controlReceiveHighWaterMark)
    state = try Socket(context, .publisher)
    try security?.secure(state, domain: ZapPolicy.stateDomain)
    // The PUB socket only receives subscriptions (topic prefixes): keep them small.
    try state.setMaxMessageSize(4096)
    try state.setSendHighWaterMark(configuration.stateHighWaterMark)
    try state.setHeartbeat(intervalMilliseconds: 1000, timeoutMilliseconds: 5000)
    for endpoint in configuration.controlEndpoints {
      try control.bind(endpoint)
      boundControlEndpoints.append(resolved(endpoint, try control.lastEndpoint))
    }
    for endpoint in configuration.stateEndpoints {
      try state.bind(endpoint)
      boundStateEndpoints.append(resolved(endpoint, try state.lastEndpoint))
    }
  }

  deinit { worker.stop() }

  /// Loops until stopped: requests in, replies and publications out, heartbeats on time.
  /// Throws `ZeroMQError` if polling or the control socket fails.
  public func run() throws {
    let loop = EventLoop(stopper: stopper)
    security?.register(in: loop) { [unowned self] topic, body in publish(topic: topic, body: body) }
    loop.whenReadable(control) { [unowned self] in try controlReadable() }
    loop.whenWoken { [unowned self] in
      security?.answersArrived()
      commitAnswered()
      try applyPrepared()
    }
    loop.eachIteration { [unowned self] in
      security?.tick(now: now()) { topic, body in
        publish(topic: topic, body: body)
      }
      // At once, even when nothing is about to be published (`publish` checks too): for a
      // revoke the watcher, the timer, ZAP or a control message's sender check noticed.
      cutRevokedSubscribers()
      continueStateCut(on: loop)
      scheduleHoldDeadline(on: loop)
    }
    logger.info(
      "broker ready",
      metadata: [
        "zmq.control": "\(boundControlEndpoints)", "zmq.state": "\(boundStateEndpoints)",
        "broker.epoch": "\(core.domain.epoch)", "zmq.pairing": "\(boundPairingEndpoints)",
        "zmq.curve": "\(security != nil)",
      ])
    // For the first seconds after a start, heartbeats go out every 100 ms: screens that
    // reconnect after a crash-restart see the new epoch (and resync) within a few hundred ms.
    heartbeat(on: loop, fastUntil: loop.now + .seconds(3))
    try loop.run()
    logger.info("broker stopped")
  }

  /// The control socket is readable: serves what is queued.
  private func controlReadable() throws(ZeroMQError) {
    group?.open(&core)
    // Drain what is queued, bounded (in messages and bytes) so heartbeats and stop requests are
    // never starved and one batch never holds more than the byte budget.
    var drained = 0
    for _ in 0..<256 where drained < configuration.drainByteBudget {
      // Flood control before any other work: a peer over its budget costs a lookup and
      // its message is consumed without being copied.
      guard
        let received = try control.receiveMultipartWithUserID(
          dontWait: true, keep: { peer, userID in admit(peer, key: userID) })
      else { break }
      if !received.kept || lastAdmission == .refuse { overBudget(received) }
      guard received.kept, !received.frames.isEmpty else { continue }
      throttle.charge(lastBudget, bytes: received.bytes)
      drained += received.bytes
      let frames = received.frames
      let access = peerKey.access(for: received.userID)
      if frames.count == 2, try takeIfPart(frames, access: access) {
        continue
      }
      // Large messages, and those of a connection with one in preparation, go off the loop;
      // the rest (presses) pay one size comparison and one emptiness check.
      if frames.count == 2, lastAdmission == .serve,
        frames[1].count >= configuration.preparationThreshold
          || (!preparation.isEmpty && preparation.isWaiting(frames[0]))
      {
        try prepareOffLoop(frames, access: access)
        continue
      }
      try serve(frames, access: access)
    }
    // Group commit: one transaction for the whole drain, then the held replies and
    // publications (or STORE_UNAVAILABLE for what could not be made durable).
    if let group { commit(group) }
  }

  /// Expires silent screens and publishes the broker's heartbeat, then schedules the next one
  /// (every 100 ms until `fastUntil`, then every configured interval).
  private func heartbeat(on loop: EventLoop, fastUntil: ContinuousClock.Instant) {
    let started = loop.now
    let grace = max(.zero, configuration.screenGrace)
    let expired = core.domain.handle(.expire(grace: grace), at: now())
    guard case .expired(let screens) = expired.reply else {
      preconditionFailure("expire is answered expired, got \(expired.reply)")
    }
    for screen in screens {
      logger.notice(
        "screen session dropped: no screen heartbeat within the grace period",
        metadata: ["screen": "\(screen)", "grace.ms": "\(grace.wholeMillisecondsRoundedUp)"])
    }
    publish(
      topic: WireProtocol.heartbeatTopic,
      body: .heartbeat(
        .with {
          $0.epoch = core.domain.epoch
          $0.screenGraceMs = UInt32(clamping: grace.wholeMillisecondsRoundedUp)
        }))
    if !lostStateEndpoints.isEmpty { bindLostStateEndpoints() }
    expireParts()
    let interval = configuration.heartbeatInterval
    let next = started + (started < fastUntil ? min(interval, .milliseconds(100)) : interval)
    loop.schedule(at: next) { [unowned self, unowned loop] in
      heartbeat(on: loop, fastUntil: fastUntil)
    }
  }

  /// Cuts the state socket's connections if the allow-list lost a key admitted to it.
  func cutRevokedSubscribers() {
    if let revoked = security?.takeRevokedSubscribers(), !revoked.isEmpty {
      cutStateConnections(revoked: revoked)
    }
  }

  /// Binds again the state endpoints a cut lost, those that can be now.
  private func bindLostStateEndpoints() {
    lostStateEndpoints.removeAll { endpoint in
      do {
        try state.bind(endpoint)
        logger.notice("state endpoint bound again", metadata: ["zmq.endpoint": "\(endpoint)"])
        return true
      } catch {
        return false
      }
    }
  }

  /// What flood control decided for the last message's peer (set by `admit`).
  var lastAdmission = PeerThrottle.Admission.serve
  /// Whose budget the last message was charged to (set by `admit`).
  var lastBudget: [UInt8] = []
  /// The last CURVE key's access and budget name, kept while its messages keep coming.
  private var peerKey = PeerKeyCache()

  /// Spends a token of the budget of the message's sender: its CURVE key (the ZAP `User-Id`)
  /// when it has one, so a key gets one budget however many connections it opens, else its
  /// connection (`peer`, the routing id). Returns whether to read the message at all: yes if it
  /// is within budget, and for the first and every 1000th refused one (answered RATE_LIMITED so
  /// a client can tell); the rest are dropped unread and unanswered.
  private func admit(_ peer: [UInt8], key: String?) -> Bool {
    // A key's budget name starts with a zero byte, as only libzmq's own 5-byte routing ids do
    // (a peer may not choose one that does), so no connection can pose as a key's budget.
    if let key {
      peerKey.use(key)
      lastBudget = peerKey.budget
    } else {
      lastBudget = peer
    }
    // A quarantined key's messages are dropped unread, and its connections cut (`overBudget`).
    if let key, isQuarantined(key) {
      lastAdmission = .drop
      return false
    }
    lastAdmission = throttle.admission(lastBudget, at: now())
    return lastAdmission != .drop
  }

  /// The broker's monotonic clock now: the time requests are handled at.
  func now() -> BrokerInstant { configuration.clock.now }

  /// Handles one ROUTER message: [peer identity, envelope].
  func serve(_ frames: [[UInt8]], access: PeerAccess) throws(ZeroMQError) {
    group?.next()
    guard let peer = frames.first else { return }
    guard frames.count == 2 else {
      logLimited(
        "dropped request: wrong frame count",
        ["peer": "\(hex(peer))", "frames": "\(frames.count)"])
      reply(
        to: peer, replyTo: 0,
        body: .error(
          .init(.malformed, "expected exactly one frame (an Envelope), got \(frames.count - 1)")))
      return
    }
    if lastAdmission == .refuse {
      // A large message is not decoded to be refused: its seq is read from its first bytes.
      let small = frames[1].count < configuration.preparationThreshold
      let refused = small ? try? Tenfoot_V1_Envelope.decode(frames[1]) : nil
      logLimited(
        "request refused: rate limited",
        ["peer": "\(refused?.sender ?? hex(peer))", "refused": "\(throttle.refused(lastBudget))"])
      var error = Tenfoot_V1_Error(
        .rateLimited,
        "more than \(Int(throttle.rate)) messages or \(Int(throttle.byteRate) / 1024) KiB per "
          + "second: slow down")
      error.retryAfterMs = throttle.retryAfter.wholeMillisecondsRoundedUp
      reply(
        to: peer, replyTo: refused?.seq ?? PreparationWorker.peekSeq(frames[1]),
        body: .error(error))
      return
    }
    if let group, !group.admit(bytes: frames[1].count) {
      return refuseBacklogged(peer, frame: frames[1])
    }
    guard let principal = principal(for: access, peer: peer, frame: frames[1]) else { return }
    if let input = KeyInputFrame(frames[1]) {
      return serve(input, peer: peer, principal: principal)
    }
    let envelope: Tenfoot_V1_Envelope
    do {
      envelope = try Tenfoot_V1_Envelope.decode(frames[1])
    } catch {
      logLimited(
        "dropped request: malformed frame", ["peer": "\(hex(peer))", "bytes": "\(frames[1].count)"])
      reply(to: peer, replyTo: 0, body: .error(.init(.malformed, error.description)))
      return
    }
    // Read once: each read of a decoded envelope's body copies it out of its storage.
    let body = envelope.body
    if let problem = InputLimits.problem(envelope, body: body) {
      logRefusal(problem, sender: envelope.sender, request: Tenfoot_V1_Envelope.name(of: body))
      reply(to: peer, replyTo: envelope.seq, body: .error(problem))
      return
    }
    if case .openPairing(let request) = body {
      return openPairing(request, peer: peer, seq: envelope.seq, principal: principal)
    }
    if case .part(let part) = body {
      return try add(part, seq: envelope.seq, peer: peer, access: access, principal: principal)
    }
    let outcome = handle(envelope, body: body, peer: peer, principal: principal)
    finish(
      outcome, peer: peer, seq: envelope.seq, sender: envelope.sender,
      request: Tenfoot_V1_Envelope.name(of: body), principal: principal)
  }

  /// Carries out what serving a request produced: binds, a log line, publications, the reply.
  func finish(
    _ outcome: WireBroker.Outcome, peer: [UInt8], seq: UInt64, sender: String,
    request: String, principal: Principal
  ) {
    if let token = outcome.held { heldReplies[token] = (peer, seq) }
    if !outcome.binds.isEmpty { claim(outcome.binds, replyingTo: peer, seq: seq) }
    if let error = outcome.outgoingReply.error, error.code == .forbidden {
      logger.notice(
        "request forbidden",
        metadata: [
          "peer.id": "\(principal.id)", "peer.role": "\(principal.role.rawValue)",
          "request": "\(request)", "error.message": "\(error.message)",
        ])
    } else if let error = outcome.outgoingReply.error {
      logRefusal(error, sender: sender, request: request)
    } else {
      logger.debug("request served", metadata: ["peer": "\(sender)", "request": "\(request)"])
    }
    // Publish before replying: a peer that sees the ack can rely on the state being on its way.
    send(outcome)
    if outcome.held == nil { reply(to: peer, replyTo: seq, body: outcome.outgoingReply) }
  }

  /// Sends an outcome's publications, then the replies it released.
  private func send(_ outcome: WireBroker.Outcome) {
    if let snapshot = outcome.encodedSnapshot {
      publishSnapshot(topic: snapshot.topic, bytes: snapshot.bytes)
    }
    for (topic, publication) in outcome.outgoing {
      switch publication {
      case .body(let body): publish(topic: topic, body: body)
      case .change(let change): publish(topic: topic, change: change)
      }
    }
    for released in outcome.released {
      guard let route = heldReplies.removeValue(forKey: released.token) else { continue }
      reply(to: route.peer, replyTo: route.replyTo, body: released.body)
    }
  }

  /// Requests whose replies wait for an app's reaction: token → where the reply goes.
  var heldReplies: [UInt64: (peer: [UInt8], replyTo: UInt64)] = [:]
  /// Registrations whose replies wait for their claim to be written to the allow-list.
  var claimReplies = ClaimReplies()
  /// The pending timer for the earliest reaction deadline, and that deadline.
  private var holdTimer: (id: EventLoop.TimerID, deadline: BrokerInstant)?

  /// Keeps one timer at the earliest reaction deadline (none when nothing is held).
  private func scheduleHoldDeadline(on loop: EventLoop) {
    guard let deadline = core.domain.nextHoldDeadline else { return }
    if let holdTimer, !(deadline < holdTimer.deadline) { return }
    if let holdTimer { loop.cancel(holdTimer.id) }
    let wait = now().duration(to: deadline)
    let id = loop.schedule(at: loop.now + max(.zero, wait)) { [unowned self, unowned loop] in
      holdTimer = nil
      releaseExpiredHolds()
      scheduleHoldDeadline(on: loop)
    }
    holdTimer = (id, deadline)
  }

  /// The inputs of screens whose app did not react in time go on without it.
  private func releaseExpiredHolds() {
    group?.open(&core)
    for (screen, outcome) in core.releaseExpiredHolds(at: now()) {
      group?.willTouch(screen)
      group?.didHandle(records: outcome.records)
      send(outcome)
    }
    if let group { commit(group) }
  }

  /// Who sent `frame`, checked on every message before it is decoded: nil (answered) if its key
  /// was revoked, or if it is a remote's message over the remote size limit (refused unread).
  func principal(for access: PeerAccess, peer: [UInt8], frame: [UInt8]) -> Principal? {
    guard let security else { return .local }
    guard let principal = security.principal(for: access) else {
      logger.notice(
        "refused message from a revoked peer", metadata: ["peer.user": "\(access.userID)"])
      // Its seq, read without decoding it, answers the right request: the client waits.
      reply(
        to: peer, replyTo: PreparationWorker.peekSeq(frame),
        body: .error(.init(.notPaired, "this key was revoked: pair again (tenfoot-remote pair)")))
      return nil
    }
    if principal.role == .remote, frame.count > configuration.maxRemoteMessageSize {
      logLimited(
        "request refused unread: too large for a remote",
        ["peer.id": "\(principal.id)", "bytes": "\(frame.count)"])
      reply(
        to: peer, replyTo: 0,
        body: .error(
          .init(
            .invalidInput,
            "a remote's messages are at most \(configuration.maxRemoteMessageSize) bytes, "
              + "this one is \(frame.count)")))
      return nil
    }
    return principal
  }

  /// Lets the domain handle a request; the records it asks to persist join the group
  /// commit, which holds the reply and publications until they are durable.
  func handle(
    _ envelope: Tenfoot_V1_Envelope, body: Tenfoot_V1_Envelope.OneOf_Body?, peer: [UInt8],
    principal: Principal
  ) -> WireBroker.Outcome {
    let owners = security?.owners ?? [:]
    guard let group else {
      return core.handle(
        envelope, body: body, peer: peer, principal: principal, owners: owners, press: nil,
        at: now())
    }
    return group.handle(
      envelope, body: body, peer: peer, principal: principal, owners: owners, core: &core,
      at: now())
  }

  /// The (rate-limited) log line of a request answered with `error`.
  func logRefusal(_ error: Tenfoot_V1_Error, sender: String, request: String) {
    logLimited(
      "request refused",
      [
        "peer": "\(sender)", "request": "\(request)", "error.code": "\(error.code)",
        "error.message": "\(error.message)",
      ])
  }

  /// A warning, at most a few per second per message; the next one says how many were dropped.
  func logLimited(_ message: Logger.Message, _ metadata: Logger.Metadata) {
    logLimiter.log(
      .warning, message, metadata: metadata, to: logger, at: now())
  }

  private func resolved(_ requested: String, _ last: String) -> String {
    // ipc endpoints come back as given; TCP wildcards come back with the real port.
    requested.hasPrefix("tcp://") ? last : requested
  }

  func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes.prefix(16)) }
}
