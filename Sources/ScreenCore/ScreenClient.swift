import FocusEngine
import Logging
import TenFootClient
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// What a screen process connects to and shows.
public struct ScreenConfiguration: Sendable {
  /// The broker's endpoints.
  public var endpoints: Endpoints
  /// The session id (`--id`).
  public var screenID: String
  /// The layout to register; nil shows an existing session without registering (a mirror).
  public var layout: Layout?
  /// How long one control request may take before it is retried (see
  /// `Endpoints.requestTimeout(for:)`).
  public var requestTimeout: Duration
  /// Fault injection for tests: deltas with these sequence numbers are dropped once, as if
  /// the network lost them, to exercise the resync path.
  public var dropDeltas: Set<UInt64> = []
  /// CURVE settings for TCP endpoints (nil: ipc:// or --insecure).
  public var curve: ClientCurve?
  /// How this screen draws (reduced motion rests the parallax in every frame it renders).
  public var display = DisplayOptions.standard
  /// Called once, on the loop's thread, after the broker first answered (over CURVE: it
  /// proved it holds the broker key), so the program can pin the key then and not before.
  public var whenBrokerAnswered: (@Sendable () -> Void)?
  /// Set when the screen's app answers later, from another thread, through
  /// `ScreenClient.reactions` (a web page): the broker is told the screen has an app, and a
  /// frame with an activation, back or home that the app has not answered within this
  /// deadline gets an empty reaction, so the inputs held behind it go on before the broker's
  /// own 250 ms deadline.
  public var appAnswersLater: Duration?
  /// The time the loop runs on: heartbeats, the link's silence and request deadlines (a test
  /// injects a `ManualClock`).
  public var clock = LoopClock.continuous

  /// A configuration for `screenID` at `endpoints`.
  public init(endpoints: Endpoints, screenID: String, layout: Layout?) {
    self.endpoints = endpoints
    self.screenID = screenID
    self.layout = layout
    requestTimeout = Endpoints.requestTimeout(for: endpoints.control)
  }
}

/// The screen process's loop: one thread owns the SUB and DEALER sockets, keeps the state in
/// sync with the broker (Clone pattern) and hands every applied state to the renderer.
public final class ScreenClient {
  let configuration: ScreenConfiguration
  private let renderer: any Renderer
  /// The app reacting to this screen's events, if it runs one (inside this screen, or as its
  /// own process attached to it).
  let app: (any ScreenApp)?
  /// The last frame the app saw, and whether it has seen one (`.joined`) and must be told the
  /// next is a resync.
  var appFrame: ScreenFrame?
  var appResyncing = false
  /// Whether the broker said (in its last heartbeat reply) that an app reacts to this
  /// session: a registration after a broker restart says so too.
  var appAttached = false
  let logger: Logger
  let control: ControlConnection
  private let subscriber: Socket
  /// Watches the state connection's handshakes: a refusal (revoked key) ends the screen with
  /// a clear message, and a reconnect after the first connection resyncs (publications made
  /// while it was down are lost, and the next delta may never come to reveal the gap).
  private let stateMonitor: SocketMonitor
  private var stateConnections = 0
  var sync: StateSync
  private let topic: [UInt8]
  private var dropDeltas: Set<UInt64>
  /// How often screen heartbeats go (see `beatInterval(grace:)`).
  private var beatInterval: Duration = ScreenClient.beatInterval
  /// The loop while `run()` runs it, and its timer for the next screen heartbeat.
  var loop: EventLoop?
  private var beatTimer: (id: EventLoop.TimerID, deadline: ContinuousClock.Instant)?
  /// Stops `run()` from any thread.
  public let stopper: LoopStopper
  /// Input from other threads (a web page acting as a remote), sent to the broker by the loop.
  public let inputs: ScreenInputQueue
  /// Reactions of an app that answers later (`ScreenConfiguration.appAnswersLater`).
  public let reactions: AppReactionQueue
  /// The deferred app's bookkeeping: the latest frame it answered, the layout its last
  /// accepted reaction left (until the broker's state shows it) and the awaited frame.
  var deferred = DeferredAppState()
  /// Whether the broker is heard, what the renderer last showed of it, when it was last heard
  /// and the gap between its last two heartbeats.
  private var link = BrokerLink.up
  /// Whether the broker last said pairing is closed (the notice is shown).
  private var pairingClosed = false
  private var lastHeard: ContinuousClock.Instant
  private var lastHeartbeat: ContinuousClock.Instant?
  private var heartbeatGap: Duration = .seconds(1)
  /// The control requests in flight while `run()` runs (their replies are loop events), and
  /// the inputs waiting for the one in flight to be answered.
  var requests: ControlRequests?
  var inputBacklog: [Tenfoot_V1_Input.OneOf_Event] = []
  var inputInFlight = false
  /// Whether a snapshot request (or the registration before it) or a heartbeat is in flight.
  var resyncInFlight = false
  var beatInFlight = false
  /// Whether `whenBrokerAnswered` was called.
  var brokerAnswered = false

  /// Creates and connects the sockets (subscribing before any snapshot is requested).
  public init(
    configuration: ScreenConfiguration, context: Context, renderer: any Renderer, logger: Logger,
    app: (any ScreenApp)? = nil
  ) throws(ZeroMQError) {
    self.configuration = configuration
    self.app = app
    self.renderer = renderer
    self.logger = logger
    stopper = try LoopStopper()
    inputs = ScreenInputQueue(waker: stopper.waker)
    reactions = AppReactionQueue(waker: stopper.waker)
    sync = StateSync(screen: configuration.screenID)
    topic = Array(WireProtocol.stateTopic(screen: configuration.screenID).utf8)
    dropDeltas = configuration.dropDeltas
    lastHeard = configuration.clock.now
    subscriber = try Socket(context, .subscriber)
    if let curve = configuration.curve {
      try subscriber.setCurveClient(serverKey: curve.brokerKey, keyPair: curve.keyPair)
    }
    let heartbeat = Endpoints.heartbeat(for: configuration.endpoints.state)
    try subscriber.setHeartbeat(
      intervalMilliseconds: heartbeat.interval, timeoutMilliseconds: heartbeat.timeout)
    try subscriber.setReconnectInterval(milliseconds: 100, maxMilliseconds: 250)
    try subscriber.subscribe(WireProtocol.stateTopic(screen: configuration.screenID))
    try subscriber.subscribe(WireProtocol.heartbeatTopic)
    try subscriber.subscribe(Self.pairingTopic)
    stateMonitor = try SocketMonitor(
      context: context, watching: subscriber,
      name: "tenfoot-screen-state-monitor",
      events: SocketEvent.handshakeSucceeded | SocketEvent.handshakeFailedAuth
        | SocketEvent.disconnected)
    // A zone's brokers: subscribed to all, the screen hears whichever is active.
    for endpoint in Endpoints.list(configuration.endpoints.state) {
      try subscriber.connect(endpoint)
    }
    control = try ControlConnection(
      context: context, endpoint: configuration.endpoints.control,
      sender: "screen:\(configuration.screenID)", curve: configuration.curve)
  }

  deinit {
    // Stop before the reader goes, or libzmq's I/O thread blocks on the next event.
    try? subscriber.stopMonitor()
  }

  /// The topic the broker publishes pairing prompts on.
  static let pairingTopic = "pairing"

  /// The error that ends a screen whose key the broker refuses (never added, or revoked).
  var notPaired: ScreenError { .notPaired(endpoint: configuration.endpoints.control) }

  /// Runs until stopped. Throws only for problems retrying cannot fix (an invalid layout).
  public func run() throws {
    try renderer.start()
    defer { renderer.stop() }
    let loop = EventLoop(stopper: stopper, clock: configuration.clock)
    self.loop = loop
    // The handlers hold `self`: dropping the loop when the run ends frees them.
    defer { self.loop = nil }
    requests = ControlRequests(connection: control, loop: loop)
    defer { requests = nil }
    loop.whenWoken { [unowned self] in
      sendQueuedInputs()
      sendQueuedReactions()
    }
    if let descriptor = renderer.wakeFileDescriptor {
      loop.whenReadable(fileDescriptor: descriptor) { [unowned self] in try renderer.handleWake() }
    }
    loop.whenReadable(stateMonitor.socket) { [unowned self] in try handleStateConnectionEvents() }
    loop.whenReadable(subscriber) { [unowned self] in
      while let frames = try subscriber.receiveMultipart(dontWait: true) {
        try handle(frames)
      }
    }
    loop.eachIteration { [unowned self] in
      if sync.awaitingSnapshot { try resync(reason: "retry") }
    }
    try resync(reason: "start")
    lastHeard = loop.now
    watchLink(on: loop)
    // The beat is a timer, so it goes even when nothing arrives: a beat that waited for
    // traffic could come a whole poll timeout late, longer than a short grace period.
    scheduleBeat(at: loop.now + beatInterval)
    try loop.run()
  }

  /// Schedules the next screen heartbeat at `deadline`, replacing the pending one.
  private func scheduleBeat(at deadline: ContinuousClock.Instant) {
    // An app in its own process keeps no session alive (the screen showing it does), and an
    // app key may not send heartbeats: it hears the broker's on the state socket.
    guard let loop, !isAttachedApp else { return }
    if let beatTimer { loop.cancel(beatTimer.id) }
    let id = loop.schedule(at: deadline) { [unowned self, unowned loop] in
      scheduleBeat(at: loop.now + beatInterval)
      beat()
    }
    beatTimer = (id, deadline)
  }

  /// How long the broker may be silent before the screen says it is gone: twice the gap
  /// between its heartbeats (1 s by default), at least 1.5 s and at most 30 s.
  var linkTimeout: Duration {
    min(.seconds(30), max(.milliseconds(1500), heartbeatGap * 2))
  }

  /// Every 250 ms: marks the link lost once the broker has been silent for `linkTimeout`.
  private func watchLink(on loop: EventLoop) {
    loop.schedule(after: .milliseconds(250)) { [unowned self, unowned loop] in
      watchLink(on: loop)
      if link == .up, loop.now - lastHeard > linkTimeout {
        try linkLost(reason: "no broker heartbeat")
      }
    }
  }

  /// The broker is gone: the renderers say so and keep the last state, marked stale.
  private func linkLost(reason: String) throws {
    guard link == .up else { return }
    link = .lost
    logger.warning(
      "broker not answering: the screen shows its last state, marked stale",
      metadata: ["reason": "\(reason)", "zmq.endpoint": "\(configuration.endpoints.state)"])
    try (renderer as? any LinkDisplay)?.showLink(.lost)
  }

  /// The broker was heard: once the screen is in sync again, the banner goes.
  private func heard(heartbeat: Bool) throws {
    let now = configuration.clock.now
    if heartbeat {
      if let lastHeartbeat { heartbeatGap = now - lastHeartbeat }
      lastHeartbeat = now
    }
    lastHeard = now
    guard link == .lost, !sync.awaitingSnapshot else { return }
    link = .up
    logger.notice(
      "broker answering again", metadata: ["zmq.endpoint": "\(configuration.endpoints.state)"])
    try (renderer as? any LinkDisplay)?.showLink(.up)
  }

  /// Reacts to the state socket's handshakes (see `stateMonitor`).
  private func handleStateConnectionEvents() throws {
    while let event = try stateMonitor.next() {
      if event.event == SocketEvent.disconnected {
        // One broker: its connection closing means it is gone (a zone's standby may close
        // while the active one still publishes, so there the heartbeats decide).
        if Endpoints.list(configuration.endpoints.state).count == 1 {
          try linkLost(reason: "state connection closed")
        }
        continue
      }
      if event.event == SocketEvent.handshakeFailedAuth {
        logger.error(
          "state connection refused: this screen's key is not on the broker's allow-list",
          metadata: ["zmq.endpoint": "\(configuration.endpoints.state)"])
        throw notPaired
      }
      guard event.event == SocketEvent.handshakeSucceeded else { continue }
      stateConnections += 1
      if stateConnections > 1 && !sync.awaitingSnapshot {
        try resync(reason: "state connection re-established")
      }
    }
  }

  private func handle(_ frames: [[UInt8]]) throws {
    guard frames.count == 2 else {
      logger.warning(
        "dropped state message: wrong frame count", metadata: ["frames": "\(frames.count)"])
      return
    }
    let envelope: Tenfoot_V1_Envelope
    do {
      envelope = try Tenfoot_V1_Envelope.decode(frames[1])
    } catch {
      logger.warning("dropped state message: malformed", metadata: ["error": "\(error)"])
      return
    }
    let action: StateSync.Action
    switch envelope.body {
    case .heartbeat(let heartbeat):
      if heartbeat.screenGraceMs > 0 {
        beatInterval = Self.beatInterval(grace: .milliseconds(heartbeat.screenGraceMs))
        if let loop, let beatTimer, loop.now + beatInterval < beatTimer.deadline {
          scheduleBeat(at: loop.now + beatInterval)
        }
      }
      try perform(sync.apply(heartbeatEpoch: heartbeat.epoch))
      try heard(heartbeat: true)
      return
    case .delta(let delta) where frames[0] == topic:
      if dropDeltas.remove(delta.seq) != nil {
        logger.notice(
          "dropped delta on purpose (--debug-drop-delta)", metadata: ["seq": "\(delta.seq)"])
        return
      }
      action = sync.apply(delta: delta)
    case .snapshot(let snapshot) where frames[0] == topic:
      action = sync.apply(snapshot: snapshot)
    case .pairingPrompt(let prompt) where frames[0] == Array(Self.pairingTopic.utf8):
      try showPairing(prompt)
      return
    default:
      return  // Another screen whose id shares our prefix, or a body for someone else.
    }
    try perform(action)
  }

  /// Shows (or hides) a pairing prompt: the PIN comes sealed to this screen's key, and a
  /// prompt with nothing sealed to it is another screen's (not shown). Every prompt says
  /// whether pairing is closed; the notice changes only when that does (the broker repeats it
  /// while closed).
  private func showPairing(_ prompt: Tenfoot_V1_PairingPrompt) throws {
    let display = renderer as? any PairingDisplay
    if prompt.closed != pairingClosed {
      pairingClosed = prompt.closed
      logger.notice("pairing closed notice", metadata: ["pairing.closed": "\(prompt.closed)"])
      if prompt.closed { try display?.showPairing(nil) }  // Closing withdrew any PIN.
      try display?.showPairingClosed(prompt.closed)
    }
    if prompt.closed { return }
    guard prompt.active else {
      logger.notice("pairing prompt", metadata: ["pairing.active": "false"])
      try display?.showPairing(nil)
      return
    }
    var pin = prompt.pin
    if let keyPair = configuration.curve?.keyPair, let own = Z85.decode(keyPair.publicKey),
      let sealed = prompt.sealed.first(where: { [UInt8]($0.screenKey) == own })
    {
      pin = SealedPIN.open([UInt8](sealed.box), with: keyPair) ?? ""
    }
    guard !pin.isEmpty else {
      logger.debug("pairing prompt for another screen")
      return
    }
    logger.notice("pairing prompt", metadata: ["pairing.active": "true"])
    try display?.showPairing(
      PairingOverlay(
        pin: pin, remoteName: prompt.remoteName, brokerFingerprint: prompt.brokerFingerprint))
  }

  func perform(_ action: StateSync.Action) throws {
    switch action {
    case .none: break
    case .render(let frame):
      // The app first: while an activation waits for its reaction the remote's next presses
      // wait too, so drawing the frame (a few hundred µs for a full catalog) comes after.
      if let app { react(app, to: frame) }
      try renderer.render(configuration.display.apply(to: frame))
      awaitDeferredReaction(to: frame)
      try heard(heartbeat: false)
    case .resync(let reason): try resync(reason: reason)
    }
  }

  /// Lets the app react to a frame's events and sends its commands as one reaction: always
  /// for a frame with an activation, back or home (the broker holds the inputs after them
  /// until it hears the app) unless the app answers later (`appAnswersLater`: its answer
  /// comes through `reactions`, or the deadline's), else only when there are commands. A
  /// refusal is logged (the app asked for something the engine would not do).
  private func react(_ app: any ScreenApp, to frame: ScreenFrame) {
    var events = AppEvent.events(in: frame, previous: appFrame)
    var commands: [AppCommand] = []
    if appFrame == nil {
      events.insert(.joined, at: 0)
      // An app in its own process puts its layout on the screen it joins.
      if configuration.layout == nil, let layout = app.layout {
        commands.append(.replaceLayout(layout))
      }
    } else if appResyncing {
      events.insert(.resynced, at: 0)
    }
    appResyncing = false
    appFrame = frame
    let screen = AppScreen(frame: frame)
    for event in events { commands += app.react(to: event, on: screen) }
    let awaited =
      configuration.appAnswersLater == nil && frame.events.contains(where: AppReaction.awaits)
    guard !commands.isEmpty || awaited else { return }
    let reaction = Tenfoot_V1_AppReaction(
      AppReaction(stateSeq: frame.seq, commands: commands), screen: configuration.screenID)
    request(.appReaction(reaction)) { [logger] result in
      switch result {
      case .success(.error(let error)):
        logger.warning(
          "app reaction refused",
          metadata: [
            "commands": "\(commands.count)", "error.code": "\(error.code.name)",
            "error.message": "\(error.message)",
          ])
      case .failure(let error):
        logger.warning("app reaction not delivered", metadata: ["error": "\(error)"])
      case .success: break
      }
    }
  }

  /// How often the screen tells the broker it is alive, before the broker's heartbeat has
  /// said how long its grace period is.
  static let beatInterval: Duration = .seconds(1)

  /// Four beats per grace period, at most one a second and at least every 50 ms: one late
  /// or lost beat on a loaded machine never drops a live screen.
  public static func beatInterval(grace: Duration) -> Duration {
    min(Self.beatInterval, max(.milliseconds(50), grace / 4))
  }

  /// Whether this client is an app in its own process, attached to a screen another process
  /// shows (it registers nothing).
  var isAttachedApp: Bool { app != nil && configuration.layout == nil }
}

/// A screen failure retrying cannot fix, with its cause; `description` says what is wrong and
/// what to do.
public enum ScreenError: Error, CustomStringConvertible {
  /// The broker refuses this screen's key (revoked, or never added).
  case notPaired(endpoint: String)
  /// The broker refused the layout with a typed error.
  case layoutRefused(Tenfoot_V1_Error)
  /// The broker refused this key the screen (its role or its screens do not allow it).
  case forbidden(String)
  /// The broker answered a request with a reply of the wrong kind.
  case unexpectedReply(request: String, reply: Tenfoot_V1_Envelope.OneOf_Body)
  /// The web renderer's server did not start listening within `timeout`.
  case webServerNotListening(timeout: Duration)
  /// The web renderer's server could not listen on the address.
  case webServerCannotListen(host: String, port: Int, cause: any Error)

  /// What is wrong and what to do.
  public var description: String {
    switch self {
    case .notPaired(let endpoint):
      "not paired: the broker at \(endpoint) refused this screen's key (revoked, or never "
        + "added): add it with tenfoot-broker remotes add --role screen (tenfoot-screen "
        + "--print-key prints it)"
    case .layoutRefused(let error):
      "the broker refused the layout: \(error.code.name): \(error.message)"
    case .forbidden(let message):
      "the broker refused: \(message) (tenfoot-broker remotes add --role app --screen ID "
        + "binds an app's key to a screen)"
    case .unexpectedReply(let request, let reply): "unexpected reply to \(request): \(reply)"
    case .webServerNotListening(let timeout):
      "the web server did not start listening within \(timeout.components.seconds) s"
    case .webServerCannotListen(let host, let port, let cause):
      "the web server could not listen on \(host):\(port): \(cause)"
    }
  }
}
