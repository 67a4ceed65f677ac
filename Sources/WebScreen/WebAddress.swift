/// A `HOST:PORT` listen address (`127.0.0.1:8080`, `[::1]:0`, `0.0.0.0:80`).
public struct WebAddress: Sendable, Equatable {
  /// The host or IP address, without brackets.
  public var host: String
  /// The port; 0 picks a free one.
  public var port: Int

  /// Parses `text`, or returns nil when it is not HOST:PORT with a port in 0…65535.
  public init?(_ text: String) {
    guard let colon = text.lastIndex(of: ":") else { return nil }
    var host = String(text[..<colon])
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]),
      (0...65535).contains(port)
    else { return nil }
    self.host = host
    self.port = port
  }
}
