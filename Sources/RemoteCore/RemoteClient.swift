import FocusEngine
import Logging
import TenFootClient
import TenFootProtocol
import ZeroMQ

#if canImport(Glibc)
  import Glibc
#endif

/// A remote's session with the broker: one long-lived control connection, a chosen screen,
/// and key presses sent as down/up events stamped with the remote's monotonic clock.
public final class RemoteClient {
  let connection: ControlConnection
  let timeout: Duration
  /// The screen session this remote drives.
  public let screen: String
  /// The broker's welcome (the wire's message: read here only, for its screens).
  let welcome: Tenfoot_V1_Welcome
  /// Subscribes to this remote's screen's state, to await its registration (nil without the
  /// state endpoint): how a zone's press waits for the screen after a takeover.
  let makeScreenWaiter: () -> ScreenWaiter?

  /// Connects, says hello and picks the screen: `screen` if given, else the only session.
  ///
  /// With a `waitForScreen` above zero and the broker's `stateEndpoint`, a broker that has no
  /// (such) screen yet is waited on: the remote subscribes to the screens' state topics and
  /// asks again when a screen's snapshot is published (a registration), or after at most a
  /// second (a subscription that was not in place yet), until one registers or the wait ends
  /// (a remote started beside its screen). Throws `RemoteError` naming the endpoint when no
  /// broker answers in time. The first hello waits `welcomeTimeout` (default: `timeout`, which
  /// every later request waits).
  public init(
    context: Context, endpoint: String, stateEndpoint: String? = nil, screen: String?,
    timeout: Duration, welcomeTimeout: Duration? = nil, name: String = "remote",
    curve: ClientCurve? = nil, waitForScreen: Duration = .zero,
    logger: Logger = Logger(label: "tenfoot.remote")
  ) throws(RemoteError) {
    do {
      connection = try ControlConnection(
        context: context, endpoint: endpoint, sender: name, curve: curve)
    } catch {
      throw .cannotConnect(endpoint: endpoint, cause: error)
    }
    self.timeout = timeout
    // In a zone a takeover leaves the new active broker without the screen until it registers
    // again (a few hundred ms): a remote started then waits for it, bounded, unless told.
    let waitForScreen =
      waitForScreen == .zero && Endpoints.list(endpoint).count > 1
      ? Self.zoneScreenWait : waitForScreen
    var waiter: ScreenWaiter?
    if waitForScreen > .zero, let stateEndpoint {
      do {
        waiter = try ScreenWaiter(
          context: context, stateEndpoint: stateEndpoint, screen: screen, curve: curve)
      } catch {
        throw .cannotConnect(endpoint: stateEndpoint, cause: error)
      }
    }
    let waitUntil = ContinuousClock.now + waitForScreen
    do throws(ControlError) {
      var answer = try connection.hello(
        role: .remote, client: "tenfoot-remote \(TenFootVersion.string)",
        timeout: welcomeTimeout ?? timeout)
      var announced = false
      while let waiting = waiter, ContinuousClock.now < waitUntil,
        screen.map({ !answer.screens.contains($0) }) ?? answer.screens.isEmpty
      {
        if !announced {
          announced = true
          logger.notice(
            "waiting for a screen to register",
            metadata: ["screen": "\(screen ?? "any")", "zmq.control": "\(endpoint)"])
        }
        do {
          try waiting.awaitRegistration(until: min(waitUntil, .now + .seconds(1)))
        } catch {
          throw ControlError.socket(error)
        }
        answer = try connection.hello(
          role: .remote, client: "tenfoot-remote \(TenFootVersion.string)", timeout: timeout)
      }
      welcome = answer
    } catch {
      throw .notWelcomed(endpoint: endpoint, timeout: timeout, cause: error)
    }
    if let screen {
      guard welcome.screens.contains(screen) else {
        throw .unknownScreen(screen, endpoint: endpoint, screens: welcome.screens)
      }
      self.screen = screen
    } else {
      guard welcome.screens.count == 1, let only = welcome.screens.first else {
        throw welcome.screens.isEmpty
          ? .noScreen(endpoint: endpoint)
          : .ambiguousScreen(endpoint: endpoint, screens: welcome.screens)
      }
      self.screen = only
    }
    let chosen = self.screen
    makeScreenWaiter = {
      stateEndpoint.flatMap {
        try? ScreenWaiter(context: context, stateEndpoint: $0, screen: chosen, curve: curve)
      }
    }
  }

  /// How long a zone's remote waits for its screen after a takeover, unless told otherwise.
  public static let zoneScreenWait: Duration = .seconds(3)

  /// Presses and releases `key`, returning what the broker did.
  public func press(_ key: RemoteButton) throws(RemoteError) -> PressResult {
    try perform(.press(key))
  }

  /// Sends one key event stamped `timestamp` (the remote's monotonic clock).
  func sendKey(_ key: RemoteButton, _ phase: ButtonPhase, at timestamp: MonotonicInstant)
    throws(RemoteError) -> InputAck
  {
    try send(.button(key, phase, at: timestamp.nanoseconds), what: key.name)
  }

  /// Sends one input event for this remote's screen and returns the broker's ack: the one
  /// place the remote's input meets the wire.
  func send(_ event: RemoteInput, what: String) throws(RemoteError) -> InputAck {
    var input = Tenfoot_V1_Input()
    input.screenID = screen
    input.event = Tenfoot_V1_Input.OneOf_Event(event)
    // The press's id: a zone's broker applies it once, so a retry after a takeover is safe.
    input.pressID = PressID.next()
    let reply: Tenfoot_V1_Envelope.OneOf_Body
    do {
      reply = try requestRetryingInZone(input)
    } catch {
      throw .requestFailed(what: what, cause: error)
    }
    switch reply {
    case .ack(let ack): return InputAck(wire: ack)
    case .error(let error): throw .refused(what: what, refusal: BrokerRefusal(wire: error))
    default: throw .unexpectedReply(what: what)
    }
  }

}
