import Logging
import TenFootClient
import TenFootProtocol
import TerminalUI
import ZeroMQ

#if canImport(Glibc)
  import Glibc
#endif

/// A remote's session with the broker: one long-lived control connection, a chosen screen,
/// and key presses sent as down/up events stamped with the remote's monotonic clock.
public final class RemoteClient {
  let connection: ControlConnection
  let timeoutMilliseconds: Int
  /// The screen session this remote drives.
  public let screen: String
  /// The broker's welcome.
  public let welcome: Tenfoot_V1_Welcome

  /// Connects, says hello and picks the screen: `screen` if given, else the only session.
  /// With `waitForScreenMilliseconds`, a broker that has no (such) screen yet is asked again
  /// every 100 ms until one registers or the wait ends (a remote started beside its screen).
  /// Throws `RemoteError` with a sentence naming the endpoint when no broker answers in time.
  public init(
    context: Context, endpoint: String, screen: String?, timeoutMilliseconds: Int,
    name: String = "remote", curve: ClientCurve? = nil, waitForScreenMilliseconds: Int = 0,
    logger: Logger = Logger(label: "tenfoot.remote")
  ) throws(RemoteError) {
    do {
      connection = try ControlConnection(
        context: context, endpoint: endpoint, sender: name, curve: curve)
    } catch {
      throw RemoteError("cannot connect to \(endpoint): \(error)")
    }
    self.timeoutMilliseconds = timeoutMilliseconds
    let waitUntil =
      MonotonicClock.nanoseconds() + UInt64(max(0, waitForScreenMilliseconds)) * 1_000_000
    do {
      var answer = try connection.hello(
        role: .remote, client: "tenfoot-remote \(TenFootVersion.string)",
        timeoutMilliseconds: timeoutMilliseconds)
      var announced = false
      while MonotonicClock.nanoseconds() < waitUntil,
        screen.map({ !answer.screens.contains($0) }) ?? answer.screens.isEmpty
      {
        if !announced {
          announced = true
          logger.notice(
            "waiting for a screen to register",
            metadata: ["screen": "\(screen ?? "any")", "zmq.control": "\(endpoint)"])
        }
        usleep(100_000)  // Polling: the broker has no "a screen registered" notification.
        answer = try connection.hello(
          role: .remote, client: "tenfoot-remote \(TenFootVersion.string)",
          timeoutMilliseconds: timeoutMilliseconds)
      }
      welcome = answer
    } catch .timedOut {
      throw RemoteError(
        "no broker answered at \(endpoint) within \(Self.seconds(timeoutMilliseconds)): is tenfoot-broker running there?",
        brokerUnreachable: true)
    } catch .notPaired {
      throw RemoteError(
        "not paired: run tenfoot-remote pair (the broker at \(endpoint) does not know this remote's key)",
        notPaired: true)
    } catch .handshakeFailed {
      throw RemoteError(
        "the secure handshake with the broker at \(endpoint) failed: its key may have changed (run tenfoot-remote pair to check)",
        brokerUnreachable: true)
    } catch {
      throw RemoteError("the broker at \(endpoint) did not welcome this remote: \(error)")
    }
    if let screen {
      guard welcome.screens.contains(screen) else {
        throw RemoteError(
          "no screen \"\(screen)\" on the broker at \(endpoint) (screens: \(Self.list(welcome.screens)))"
        )
      }
      self.screen = screen
    } else {
      guard welcome.screens.count == 1, let only = welcome.screens.first else {
        throw RemoteError(
          welcome.screens.isEmpty
            ? "no screen is registered at \(endpoint): start tenfoot-screen first"
            : "several screens are registered (\(Self.list(welcome.screens))): pick one with --screen"
        )
      }
      self.screen = only
    }
  }

  /// Presses and releases `key`, returning what the broker did.
  public func press(_ key: Tenfoot_V1_Key) throws(RemoteError) -> PressResult {
    try perform(.press(key))
  }

  /// Sends one key event stamped `timestamp` (the remote's monotonic clock, nanoseconds).
  func sendKey(_ key: Tenfoot_V1_Key, _ phase: Tenfoot_V1_KeyPhase, at timestamp: UInt64)
    throws(RemoteError) -> Tenfoot_V1_Ack
  {
    var event = Tenfoot_V1_KeyEvent()
    event.key = key
    event.phase = phase
    event.timestampNs = timestamp
    return try send(.key(event), what: key.name)
  }

  /// Sends one input event for this remote's screen and returns the broker's ack.
  func send(_ event: Tenfoot_V1_Input.OneOf_Event, what: String) throws(RemoteError)
    -> Tenfoot_V1_Ack
  {
    var input = Tenfoot_V1_Input()
    input.screenID = screen
    input.event = event
    // The press's id: a zone's broker applies it once, so a retry after a takeover is safe.
    input.pressID = PressID.next()
    let reply: Tenfoot_V1_Envelope.OneOf_Body
    do {
      reply = try requestRetryingInZone(input)
    } catch {
      switch error {
      case .timedOut, .socket, .handshakeFailed:
        throw RemoteError("\(what): \(error)", brokerUnreachable: true)
      case .notPaired:
        throw RemoteError("\(what): \(error)", notPaired: true)
      case .refused, .malformedReply:
        throw RemoteError("\(what): \(error)")
      }
    }
    switch reply {
    case .ack(let ack): return ack
    case .error(let error) where error.code == .notPaired:
      throw RemoteError("not paired: run tenfoot-remote pair (\(error.message))", notPaired: true)
    case .error(let error):
      throw RemoteError("\(what): broker refused: \(error.code.name): \(error.message)")
    default: throw RemoteError("\(what): unexpected reply from broker")
    }
  }

  private static func list(_ screens: [String]) -> String {
    screens.isEmpty ? "none" : screens.joined(separator: ", ")
  }

  private static func seconds(_ milliseconds: Int) -> String {
    milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
  }
}

/// What one key press (or gesture) did.
public struct PressResult: Sendable {
  /// What was done: a key name, or a gesture ("swipe right").
  public var name: String
  /// The engine's effects, in order (down, then up).
  public var effects: [Tenfoot_V1_FocusEffect]
  /// The focused item afterwards.
  public var focused: String?
  /// Whether the focused item is a text field (the remote may `type`).
  public var editingText = false

  /// One line for people and scripts: `right: focus r0c0 → r0c1 (right); focused r0c1`.
  /// Filtered for a terminal (``TerminalText``): the effects carry text from the broker.
  public var line: String {
    let what = effects.isEmpty ? "no effect" : effects.map(\.summary).joined(separator: "; ")
    return TerminalText.printable(
      "\(name): \(what); focused \(focused ?? "none")\(editingText ? " (text field: type to edit)" : "")"
    )
  }
}

/// A remote failure, as a sentence for people.
public struct RemoteError: Error, CustomStringConvertible {
  /// What went wrong and what to do.
  public let description: String
  /// Whether the broker stopped answering (no reply in time, or the socket failed), as
  /// opposed to refusing one request: an interactive session cannot go on.
  public let brokerUnreachable: Bool
  /// Whether the broker does not (or no longer) accept this remote's key.
  public let notPaired: Bool
  /// Creates an error; its description is filtered for a terminal (``TerminalText``), as it
  /// may quote the broker.
  public init(_ description: String, brokerUnreachable: Bool = false, notPaired: Bool = false) {
    self.description = TerminalText.printable(description)
    self.brokerUnreachable = brokerUnreachable
    self.notPaired = notPaired
  }
}
