import FocusEngine
import Logging
import TenFootClient
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// The screen process's loop: one thread owns the SUB and DEALER sockets, keeps the state in
/// sync with the broker (Clone pattern) and hands every applied state to the renderer.
public final class ScreenClient {
  let configuration: ScreenConfiguration
  let renderer: any Renderer
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
  let stateMonitor: SocketMonitor
  var stateConnections = 0
  var sync: StateSync
  private let topic: [UInt8]
  private var dropDeltas: Set<UInt64>
  /// How often screen heartbeats go (see `beatInterval(grace:)`).
  var beatInterval: Duration = ScreenClient.beatInterval
  /// The loop while `run()` runs it, and its timer for the next screen heartbeat.
  var loop: EventLoop?
  var beatTimer: (id: EventLoop.TimerID, deadline: ContinuousClock.Instant)?
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
  var link = BrokerLink.up
  /// Whether the broker last said pairing is closed (the notice is shown).
  var pairingClosed = false
  var lastHeard: ContinuousClock.Instant
  var lastHeartbeat: ContinuousClock.Instant?
  var heartbeatGap: Duration = .seconds(1)
  /// The control requests in flight while `run()` runs (their replies are loop events), and
  /// the sender of the input `inputs` takes, on them.
  var requests: ControlRequests?
  var inputSender: InputSender?
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
    let requests = try ControlRequests(connection: control, loop: loop)
    self.requests = requests
    defer { self.requests = nil }
    let inputSender = InputSender(
      screenID: configuration.screenID, timeout: configuration.requestTimeout, loop: loop
    ) { [unowned self] failure in inputFailed(failure) }
    inputSender.attach(requests)
    self.inputSender = inputSender
    defer { self.inputSender = nil }
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

  private func handle(_ frames: [[UInt8]]) throws {
    guard frames.count == 2 else {
      logger.warning(
        "dropped state message: wrong frame count", metadata: ["frames": "\(frames.count)"])
      return
    }
    // A press's delta in the usual shape goes straight into the frame (`DeltaFrame`).
    if frames[0] == topic, let delta = DeltaFrame(frames[1]) {
      if dropDeltas.remove(delta.seq) != nil {
        logger.notice(
          "dropped delta on purpose (--debug-drop-delta)", metadata: ["seq": "\(delta.seq)"])
        return
      }
      return try perform(sync.apply(delta: delta))
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
}
