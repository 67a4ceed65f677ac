import Logging
import ScreenCore
import TenFootClient
import TenFootProtocol
import ZeroMQ

/// One phone session on the phone loop: pairs a fresh key through the broker's pairing
/// endpoint, exactly as `tenfoot-remote pair` does, with the PIN the broker shows on this
/// screen (the screen sees it the way a person in front of it does), then sends the page's
/// input as that key over a control connection of its own, one request at a time
/// (`InputSender`). Every request goes out at once and its answer, or its deadline, comes
/// back as a loop event (`ControlRequests`): nothing waits on the loop, so one phone never
/// holds up another.
///
/// While idle it asks the broker every `checkInterval` whether it still lets the key in, so a
/// revoke shows on the page at once. A check that gets no answer replaces the connection with
/// a fresh one (the broker may have closed it on a revoke: a fresh handshake says whether the
/// key is still let in) and checks again at once, with the same deadline, until the broker
/// answers: a broker away for hours costs one connection per `requestTimeout`, as loop
/// events.
final class PhoneLink {
  /// How long an idle session waits between checks.
  static let checkInterval: Duration = .seconds(1)
  /// How long a session waits for the broker's pairing prompt to reach the screen.
  static let promptTimeout: Duration = .seconds(15)

  /// A connection and the requests on it.
  struct Channel {
    let connection: ControlConnection
    let requests: ControlRequests
  }

  let session: PhoneSession
  let settings: PhoneRemoteSettings
  unowned let loop: EventLoop
  let logger: Logger
  /// The broker's latest pairing prompt to this screen.
  let prompt: () -> PairingOverlay?
  private let ended: (PhoneLink) -> Void
  /// This session's key pair, made when it starts (held in memory only: a session that ends
  /// is never resumed, and its allow-list entry is revoked or left for `remotes revoke`).
  var keyPair: CurveKeyPair?
  /// The pairing's messages, once the session started.
  var messages: PairingMessages?
  /// The pairing's connection, until paired.
  var pairing: Channel?
  /// The round waiting for this phone's PIN, and the timer that gives up on the prompt.
  var round: (challenge: PairingClient.Challenge, deadline: EventLoop.TimerID)?
  /// The control connection, once paired.
  private var control: Channel?
  /// The allow-list id, once paired.
  private var id: String?
  private var welcomed = false
  /// The page's input, sent on the control connection once welcomed.
  private var inputs: InputSender?
  private var checkTimer: EventLoop.TimerID?
  private var checkInFlight = false
  /// A check went unanswered and the broker has not answered since.
  private var lostBroker = false
  private(set) var isClosed = false

  /// `session`'s link on `loop`; `ended` runs once it ended (revoked or failed).
  init(
    session: PhoneSession, settings: PhoneRemoteSettings, loop: EventLoop, logger: Logger,
    prompt: @escaping () -> PairingOverlay?, ended: @escaping (PhoneLink) -> Void
  ) {
    self.session = session
    self.settings = settings
    self.loop = loop
    self.logger = logger
    self.prompt = prompt
    self.ended = ended
  }

  /// Opens a connection to `endpoint` whose replies come back on the loop.
  func open(_ endpoint: String, sender: String, curve: ClientCurve?) throws(ZeroMQError)
    -> Channel
  {
    let connection = try ControlConnection(
      context: settings.context, endpoint: endpoint, sender: sender, curve: curve)
    return Channel(
      connection: connection, requests: try ControlRequests(connection: connection, loop: loop))
  }

  // MARK: Serving

  /// Paired as `id`: opens the control connection with the phone's key and says hello.
  func paired(_ id: String, keyPair: CurveKeyPair) throws {
    self.id = id
    pairing?.requests.close()
    pairing = nil
    logger.notice("phone paired", metadata: ["peer": "\(id)"])
    try connect(keyPair)
  }

  private func connect(_ keyPair: CurveKeyPair) throws {
    control?.requests.close()
    control = try open(
      settings.controlEndpoint, sender: session.name.replacingOccurrences(of: " ", with: "-"),
      curve: ClientCurve(keyPair: keyPair, brokerKey: settings.brokerKey))
    // Requests on the old connection were dropped with it; input goes on on the new one.
    if welcomed { inputs?.attach(control?.requests) }
    checkInFlight = false
    check()
  }

  /// Says hello: the first makes the session connected; later ones check the key is still
  /// let in.
  private func check() {
    guard let control, !checkInFlight else { return }
    checkInFlight = true
    var hello = Tenfoot_V1_Hello()
    hello.role = .remote
    hello.client = "tenfoot-screen phone remote"
    control.requests.send(.hello(hello), timeout: settings.requestTimeout) {
      [unowned self] result in
      checkInFlight = false
      try checked(result)
    }
  }

  private func checked(_ result: Result<Tenfoot_V1_Envelope.OneOf_Body, ControlError>) throws {
    switch result {
    case .success(.welcome):
      if lostBroker {
        lostBroker = false
        logger.notice("phone reconnected")
      }
      if !welcomed, let id {
        welcomed = true
        session.set(.connected(id: id))
        startInput()
      }
      scheduleCheck(at: loop.now + Self.checkInterval)
    case .success(.error(let error)):
      end(with: ControlError.refused(BrokerRefusal(wire: error)))
    case .success:
      end(with: ControlError.malformedReply("hello was not answered with welcome"))
    case .failure(let error) where error.isNoAnswer && welcomed:
      if !lostBroker {
        lostBroker = true
        logger.notice("phone lost the broker; reconnecting", metadata: ["error": "\(error)"])
      }
      guard let keyPair else { return }
      try connect(keyPair)
    case .failure(let error):
      end(with: error)
    }
  }

  /// The next check at `deadline`, or a check interval after the last input sent.
  private func scheduleCheck(at deadline: ContinuousClock.Instant) {
    if let checkTimer { loop.cancel(checkTimer) }
    checkTimer = loop.schedule(at: deadline) { [unowned self] in
      checkTimer = nil
      if let lastSent = inputs?.lastSent, lastSent + Self.checkInterval > loop.now {
        scheduleCheck(at: lastSent + Self.checkInterval)
      } else {
        check()
      }
    }
  }

  /// Takes what the page queued and sends it, after what waits already (before the first
  /// welcome it waits with the page's own queue).
  func takeInput() {
    inputs?.enqueue(session.takeEvents())
  }

  /// Welcomed: the page's input goes out from now on.
  private func startInput() {
    let inputs = InputSender(
      screenID: settings.screenID, timeout: settings.requestTimeout, loop: loop
    ) { [unowned self] failure in inputFailed(failure) }
    self.inputs = inputs
    inputs.attach(control?.requests)
    takeInput()
  }

  /// Logs an input the sender dropped; a refusal of the key, or a connection that failed
  /// otherwise than by not answering, ends the session.
  private func inputFailed(_ failure: InputSender.Failure) {
    switch failure {
    case .refused(let refusal) where refusal.code == .notPaired:
      end(with: ControlError.refused(refusal))
    case .refused(let refusal):
      logger.notice(
        "broker refused phone input",
        metadata: ["code": "\(refusal.code.name)", "message": "\(refusal.message)"])
    case .undelivered(let error, let dropped) where error.isNoAnswer:
      logger.notice(
        "phone input not delivered", metadata: ["error": "\(error)", "dropped": "\(dropped)"])
    case .undelivered(let error, _):
      end(with: error)
    }
  }

  // MARK: Ending

  /// Ends the session: revoked if the broker refuses its key, else failed with `error`.
  func end(with error: any Error) {
    guard !isClosed else { return }
    let status: PhoneSession.Status
    if Self.isRevoke(error) {
      logger.notice("phone revoked: the broker refuses its key")
      status = .revoked
    } else {
      logger.warning("phone session ended", metadata: ["error": "\(error)"])
      status = .failed("\(error)")
    }
    close()
    session.end(status)
    ended(self)
  }

  /// Closes the sockets and timers (the session ended, or the loop stopped).
  func close() {
    isClosed = true
    pairing?.requests.close()
    control?.requests.close()
    pairing = nil
    control = nil
    inputs?.attach(nil)
    if let round { loop.cancel(round.deadline) }
    round = nil
    if let checkTimer { loop.cancel(checkTimer) }
    checkTimer = nil
  }

  /// Whether `error` says the broker no longer lets the key in.
  private static func isRevoke(_ error: any Error) -> Bool {
    switch error as? ControlError {
    case .notPaired: true
    case .refused(let refusal): refusal.code == .notPaired
    default: false
    }
  }
}
