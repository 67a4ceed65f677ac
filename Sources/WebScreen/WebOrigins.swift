/// Which web pages may open the screen's WebSockets: a browser names the page that opens a
/// socket in its `Origin` header, so a page from another site (which could guess nothing but
/// might have been given the key, or try a phone token) is refused before the upgrade.
///
/// Let in: the page's own origin (the request's `Host` under http or https) and the origins
/// the operator lists (`--web-allow-origin`). A request without `Origin`, or with a `ws:` or
/// `wss:` one (which some WebSocket libraries send), comes from a program, not a browser page
/// (browsers always send the page's origin, and a page cannot change it), and is let in: the
/// key or the phone token still has to be right. The check is against browsers carrying
/// another site's page; a program can send any header it likes.
public struct WebOrigins: Sendable, Equatable {
  /// The listed origins, normalized (`scheme://host[:port]`, lowercase, default port dropped).
  public let allowed: Set<String>

  /// A policy letting in the page's own origin and `origins`, or the first of `origins` that
  /// is not an http(s) origin.
  public static func allowing(_ origins: [String]) -> Result<WebOrigins, Invalid> {
    var allowed: Set<String> = []
    for origin in origins {
      guard let normalized = normalize(origin, allowingTrailingSlash: true) else {
        return .failure(Invalid(origin: origin))
      }
      allowed.insert(normalized)
    }
    return .success(WebOrigins(allowed: allowed))
  }

  /// The page's own origin only.
  public static let sameOrigin = WebOrigins(allowed: [])

  private init(allowed: Set<String>) {
    self.allowed = allowed
  }

  /// An origin that is not `http://HOST[:PORT]` or `https://HOST[:PORT]`.
  public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text given.
    public let origin: String

    /// The sentence for the command line.
    public var description: String {
      "\(origin) is not an origin: give http://HOST[:PORT] or https://HOST[:PORT]"
    }
  }

  /// Why a WebSocket request with `origin` (nil: none sent) to `host` (its `Host` header) is
  /// refused, or nil when it is let in.
  public func refusal(origin: String?, host: String?) -> String? {
    guard let origin else { return nil }
    // A page's origin is never ws: or wss:; some WebSocket libraries send their own URL's.
    let lowercased = origin.lowercased()
    if lowercased.hasPrefix("ws://") || lowercased.hasPrefix("wss://") { return nil }
    guard let normalized = Self.normalize(origin, allowingTrailingSlash: false) else {
      return "origin \(Self.printable(origin)) is not allowed"
    }
    if allowed.contains(normalized) { return nil }
    if let host, let scheme = normalized.split(separator: ":").first,
      let own = Self.normalize("\(scheme)://\(host)", allowingTrailingSlash: false),
      own == normalized
    {
      return nil
    }
    return
      "origin \(Self.printable(origin)) is not allowed: only this screen's own pages "
      + "(and --web-allow-origin) may connect"
  }

  /// `scheme://host[:port]` lowercased with the scheme's default port dropped, or nil when
  /// `text` is not an http(s) origin (a path, query, user or empty host).
  static func normalize(_ text: String, allowingTrailingSlash: Bool) -> String? {
    var text = text.lowercased()
    if allowingTrailingSlash && text.hasSuffix("/") { text.removeLast() }
    let scheme: String
    let defaultPort: String
    if text.hasPrefix("http://") {
      (scheme, defaultPort) = ("http", ":80")
    } else if text.hasPrefix("https://") {
      (scheme, defaultPort) = ("https", ":443")
    } else {
      return nil
    }
    var authority = String(text.dropFirst(scheme.count + 3))
    let allowedCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:[]")
    guard !authority.isEmpty, authority.allSatisfy({ allowedCharacters.contains($0) }),
      !authority.hasPrefix(":")
    else { return nil }
    if authority.hasSuffix(defaultPort) { authority.removeLast(defaultPort.count) }
    return "\(scheme)://\(authority)"
  }

  /// `origin` cut to 100 printable ASCII characters, for a log line or a refusal.
  static func printable(_ origin: String) -> String {
    String(
      String.UnicodeScalarView(
        origin.unicodeScalars.prefix(100).filter {
          $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f
        }))
  }
}
