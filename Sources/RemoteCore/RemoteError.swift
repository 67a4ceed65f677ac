import TenFootClient
import TenFootProtocol
import TerminalUI
import ZeroMQ

#if canImport(Glibc)
  import Glibc
#endif

/// A remote failure, with its cause kept (the endpoint, the control error, the broker's typed
/// error, the errno); `description` says what went wrong and what to do, filtered for a
/// terminal (``TerminalText``) as it may quote the broker.
public enum RemoteError: Error, CustomStringConvertible {
  /// The control socket could not be created or connected.
  case cannotConnect(endpoint: String, cause: ZeroMQError)
  /// Saying hello got no welcome within `timeout`: no broker, not paired, a failed handshake
  /// or another answer.
  case notWelcomed(endpoint: String, timeout: Duration, cause: ControlError)
  /// The screen asked for is not registered.
  case unknownScreen(String, endpoint: String, screens: [String])
  /// No screen is registered, and none was named.
  case noScreen(endpoint: String)
  /// Several screens are registered, and none was named.
  case ambiguousScreen(endpoint: String, screens: [String])
  /// A request (`what`: a key, a gesture, `focus`) got no usable answer.
  case requestFailed(what: String, cause: ControlError)
  /// The broker refused a request.
  case refused(what: String, refusal: BrokerRefusal)
  /// The broker answered a request with a reply of the wrong kind.
  case unexpectedReply(what: String)
  /// A command (command line, prompt or script) that does not parse; `problem` is the usage
  /// hint for people.
  case invalidCommand(problem: String)
  /// A script line that does not parse.
  indirect case scriptLine(Int, RemoteError)
  /// The keyboard could not be read.
  case keyboard(errno: Int32)
  /// The terminal could not be written.
  case terminal(TerminalError)

  /// Whether the broker stopped answering (no reply in time, or the socket failed), as
  /// opposed to refusing one request: an interactive session cannot go on.
  public var brokerUnreachable: Bool {
    switch self {
    case .notWelcomed(_, _, let cause), .requestFailed(_, let cause):
      switch cause {
      case .timedOut, .socket, .handshakeFailed, .nothingListening: true
      case .notPaired, .refused, .malformedReply, .securityMismatch, .tooLarge: false
      }
    default: false
    }
  }

  /// Whether the broker does not (or no longer) accept this remote's key.
  public var notPaired: Bool {
    switch self {
    case .notWelcomed(_, _, .notPaired), .requestFailed(_, .notPaired): true
    case .refused(_, let refusal): refusal.code == .notPaired
    default: false
    }
  }

  /// Whether an interactive session cannot go on after this error: the broker stopped
  /// answering, or it no longer accepts this remote's key.
  public var endsSession: Bool { brokerUnreachable || notPaired }

  /// What went wrong and what to do.
  public var description: String { TerminalText.printable(sentence) }

  private var sentence: String {
    switch self {
    case .cannotConnect(let endpoint, let cause): "cannot connect to \(endpoint): \(cause)"
    case .notWelcomed(let endpoint, let timeout, let cause):
      Self.notWelcomed(endpoint, timeout, cause)
    case .unknownScreen(let screen, let endpoint, let screens):
      "no screen \"\(screen)\" on the broker at \(endpoint) (screens: \(Self.list(screens)))"
    case .noScreen(let endpoint):
      "no screen is registered at \(endpoint): start tenfoot-screen first"
    case .ambiguousScreen(_, let screens):
      "several screens are registered (\(Self.list(screens))): pick one with --screen"
    case .requestFailed(let what, let cause): "\(what): \(cause)"
    case .refused(_, let refusal) where refusal.code == .notPaired:
      // The broker refuses a key it let in before only once it was revoked; its message gives
      // its own advice, which would say "pair" a second time.
      "not paired: the broker revoked this remote's key: run tenfoot-remote pair to pair again"
    case .refused(let what, let refusal): "\(what): broker refused: \(refusal)"
    case .unexpectedReply(let what): "\(what): unexpected reply from broker"
    case .invalidCommand(let problem): problem
    case .scriptLine(let number, let error): "line \(number): \(error.sentence)"
    case .keyboard(let code): "cannot read the keyboard: \(String(cString: strerror(code)))"
    case .terminal(let error): "cannot write to the terminal: \(error)"
    }
  }

  private static func notWelcomed(_ endpoint: String, _ timeout: Duration, _ cause: ControlError)
    -> String
  {
    switch cause {
    case .timedOut:
      "no broker answered at \(endpoint) within \(seconds(timeout)): "
        + "is tenfoot-broker running there?"
    case .notPaired:
      "not paired: run tenfoot-remote pair (the broker at \(endpoint) does not know this "
        + "remote's key)"
    case .handshakeFailed:
      "the secure handshake with the broker at \(endpoint) failed: its key may have changed "
        + "(run tenfoot-remote pair to check)"
    case .nothingListening, .securityMismatch: cause.description
    default: "the broker at \(endpoint) did not welcome this remote: \(cause)"
    }
  }

  private static func list(_ screens: [String]) -> String {
    screens.isEmpty ? "none" : screens.joined(separator: ", ")
  }

  /// `3 s`, `0.5 s`.
  private static func seconds(_ duration: Duration) -> String {
    let milliseconds = Int((duration / .milliseconds(1)).rounded(.up))
    return milliseconds % 1000 == 0
      ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
  }
}
