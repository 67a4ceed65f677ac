import HummingbirdCore

/// Whether a WebSocket request may be upgraded: `/ws` (the screen's page) needs an allowed
/// origin and the access key; `/phone/ws` an allowed origin (its token is checked once the
/// socket is open, so the page can be told why a code does not work).
public struct WebSocketAdmission: Sendable {
  let accessKey: WebAccessKey
  let origins: WebOrigins

  /// Why an upgrade of `uri` (path and query) from `origin` to `host` is refused, or nil.
  func refusal(uri: String, host: String?, origin: String?) -> String? {
    let parsed = URI(uri)
    switch parsed.path {
    case "/ws":
      if let refusal = origins.refusal(origin: origin, host: host) { return refusal }
      guard let key = parsed.queryParameters.get("key"), accessKey.matches(key) else {
        return "missing or wrong key: open the URL tenfoot-screen printed"
      }
      return nil
    case "/phone/ws":
      return origins.refusal(origin: origin, host: host)
    default:
      return nil
    }
  }
}
