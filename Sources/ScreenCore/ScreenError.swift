import TenFootProtocol

/// A screen failure retrying cannot fix, with its cause; `description` says what is wrong and
/// what to do.
public enum ScreenError: Error, CustomStringConvertible {
  /// The broker refuses this screen's key (revoked, or never added).
  case notPaired(endpoint: String)
  /// The broker refused the layout with a typed error.
  case layoutRefused(BrokerRefusal)
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
    case .layoutRefused(let refusal): "the broker refused the layout: \(refusal)"
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
