import FocusEngine
import TenFootClient
import TenFootProtocol

/// The screen's control requests: each goes out at once and its reply (or its timeout) comes
/// back as a loop event (`ControlRequests`), so the loop keeps reading state and drawing while
/// the broker is slow.
extension ScreenClient {
  /// Sends `body`; `completion` runs on the loop with the reply or the failure. Does nothing
  /// outside `run()`.
  func request(
    _ body: Tenfoot_V1_Envelope.OneOf_Body, _ completion: @escaping ControlRequests.Completion
  ) {
    requests?.send(body, timeout: configuration.requestTimeout, completion)
  }

  // MARK: Inputs

  /// Hands what `inputs` holds to the input sender (one request at a time, in order; a
  /// refused event is logged and dropped, one the broker does not answer is dropped with
  /// those behind it: input is never replayed late).
  func sendQueuedInputs() {
    inputSender?.enqueue(inputs.drain())
  }

  /// Logs an input the sender dropped.
  func inputFailed(_ failure: InputSender.Failure) {
    switch failure {
    case .refused(let refusal):
      logger.notice(
        "broker refused input",
        metadata: ["code": "\(refusal.code.name)", "message": "\(refusal.message)"])
    case .undelivered(let error, let dropped):
      logger.notice(
        "input not delivered", metadata: ["error": "\(error)", "dropped": "\(dropped)"])
    }
  }

  // MARK: Heartbeats

  /// Tells the broker this screen still shows its session, so the session outlives the
  /// broker's grace period; if the broker no longer knows it, resyncs (re-registering). A beat
  /// still unanswered when the next is due is not doubled.
  func beat() {
    // The resync talks to the broker.
    guard !sync.awaitingSnapshot, !beatInFlight else { return }
    var heartbeat = Tenfoot_V1_Heartbeat()
    heartbeat.screenID = configuration.screenID
    beatInFlight = true
    request(.heartbeat(heartbeat)) { [unowned self] result in
      beatInFlight = false
      switch result {
      case .failure(let error):
        logger.notice("heartbeat unanswered", metadata: ["error": "\(error)"])
      case .success(.ack(let ack)) where ack.app != appAttached:
        appAttached = ack.app
        logger.info(ack.app ? "an app reacts to this screen" : "no app reacts to this screen")
      case .success(.error(let error))
      where error.code == .unknownScreen || error.code == .screenGone:
        try resync(reason: "the broker no longer knows this session")
      case .success(.error(let error)) where error.code == .notPaired: throw notPaired
      case .success: break
      }
    }
  }

  // MARK: Resync

  /// Asks for a snapshot (registering the layout first if the broker does not know the
  /// session) and applies the reply when it comes; with no answer the loop asks again.
  func resync(reason: String) throws {
    sync.snapshotRequested()
    if appFrame != nil { appResyncing = true }
    guard !resyncInFlight else { return }
    logger.info("requesting snapshot", metadata: ["reason": "\(reason)"])
    requestSnapshot(attempt: 0)
  }

  private func requestSnapshot(attempt: Int) {
    var request = Tenfoot_V1_SnapshotRequest()
    request.screenID = configuration.screenID
    request.app = app != nil || configuration.appAnswersLater != nil
    resyncInFlight = true
    self.request(.snapshotRequest(request)) { [unowned self] result in
      resyncInFlight = false
      try handleSnapshotReply(result, attempt: attempt)
    }
  }

  private func handleSnapshotReply(
    _ result: Result<Tenfoot_V1_Envelope.OneOf_Body, ControlError>, attempt: Int
  ) throws {
    guard let reply = try resyncReply(result) else { return }
    switch reply {
    case .snapshot(let snapshot):
      if let answered = configuration.whenBrokerAnswered, !brokerAnswered {
        brokerAnswered = true
        answered()
      }
      try perform(sync.apply(snapshot: snapshot))
    case .error(let error) where error.code == .notPaired:
      throw notPaired
    case .error(let error) where error.code == .forbidden:
      throw ScreenError.forbidden(error.message)
    case .error(let error) where error.code == .unknownScreen && attempt == 0:
      guard let layout = layoutToRegister else {
        logger.notice("waiting for the session to be registered by another screen")
        return
      }
      register(layout)
    default:
      logger.warning("unexpected snapshot reply", metadata: ["reply": "\(reply)"])
    }
  }

  /// A resync request's reply body; nil (logged) when the broker did not answer, for the next
  /// resync to try again (a zone's broker paused or dying under a takeover); throws when this
  /// screen's key is not paired.
  private func resyncReply(_ result: Result<Tenfoot_V1_Envelope.OneOf_Body, ControlError>) throws
    -> Tenfoot_V1_Envelope.OneOf_Body?
  {
    switch result {
    case .success(let body): return body
    case .failure(.notPaired): throw notPaired
    case .failure(let error):
      logger.notice(
        "waiting for broker",
        metadata: ["zmq.endpoint": "\(configuration.endpoints.control)", "error": "\(error)"])
      return nil
    }
  }

  /// The layout to register: the one last shown (the app's pages and patches included, with
  /// focus where it was) once there is one, so a broker that restarted without the session
  /// gets the screen as it was, not the file's first page; else the configured one.
  private var layoutToRegister: Layout? {
    guard configuration.layout != nil else { return nil }
    guard let frame = sync.frame else { return configuration.layout }
    var layout = frame.layout
    layout.initialFocus = frame.focused
    return layout
  }

  /// Registers `layout`, then asks for the snapshot again (once).
  private func register(_ layout: Layout) {
    var request = Tenfoot_V1_RegisterScreen()
    request.screenID = configuration.screenID
    request.layout = Tenfoot_V1_Layout(layout)
    // A broker that restarted holds activations for the app from the first press, before
    // an app in its own process has attached again (or presumes it gone at a missed deadline).
    request.app = app != nil || configuration.appAnswersLater != nil || appAttached
    resyncInFlight = true
    self.request(.registerScreen(request)) { [unowned self] result in
      resyncInFlight = false
      guard try registered(result) else { return }
      requestSnapshot(attempt: 1)
    }
  }

  /// Handles the registration's reply; returns whether to ask for the snapshot now.
  private func registered(_ result: Result<Tenfoot_V1_Envelope.OneOf_Body, ControlError>) throws
    -> Bool
  {
    guard let reply = try resyncReply(result) else { return false }
    switch reply {
    case .ack(let ack):
      logger.info(
        "registered layout", metadata: ["screen": "\(ack.screenID)", "seq": "\(ack.stateSeq)"])
      return true
    case .error(let error) where error.code == .storeUnavailable:
      logger.notice("layout not registered yet: the broker's store is unavailable")
      return true
    case .error(let error):
      throw ScreenError.layoutRefused(BrokerRefusal(wire: error))
    default:
      throw ScreenError.unexpectedReply(request: "register", reply: reply)
    }
  }
}
