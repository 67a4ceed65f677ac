/// The page server's URLs carry secrets in their queries: the page's access key (`key`), a
/// phone's one-time token (`token`) and its session (`session`). They are printed once for
/// the operator, and logged whole only at debug level; above it, `redacted`.
public enum SecretURL {
  /// The query parameters whose values are secrets.
  static let secretParameters: Set<Substring> = ["key", "token", "session"]

  /// `url` with each secret query parameter's value replaced by `…`
  /// (`http://h:8080/?key=…`).
  public static func redacted(_ url: String) -> String {
    guard let question = url.firstIndex(of: "?") else { return url }
    let query = url[url.index(after: question)...].split(
      separator: "&", omittingEmptySubsequences: false
    ).map { part -> String in
      guard let equals = part.firstIndex(of: "="), secretParameters.contains(part[..<equals])
      else { return String(part) }
      return part[...equals] + "…"
    }
    return url[...question] + query.joined(separator: "&")
  }
}
