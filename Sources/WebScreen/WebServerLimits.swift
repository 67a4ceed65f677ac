/// How long the page server waits for slow clients and how many it lets in at once, so a
/// client on the network that opens connections and sends nothing (or a byte at a time)
/// cannot hold the screen's page and its WebSocket away from everyone else.
public struct WebServerLimits: Sendable, Equatable {
  /// From a connection's accept until the end of its first request's headers; a connection
  /// still sending them then is closed.
  public var headerTimeout: Duration
  /// How long a kept-alive connection may sit without a request (and a request's later
  /// parts may take) before it is closed. Open WebSockets are not idle connections: they
  /// are kept by pings.
  public var idleTimeout: Duration
  /// Connections open at once, WebSockets included; one more is closed as soon as it is
  /// accepted.
  public var maxConnections: Int
  /// Connections open at once from one client address, so one client cannot take them all.
  public var maxConnectionsPerAddress: Int
  /// Refusals of one kind (over the cap, headers too slow) are logged at most once per this
  /// long, with how many there were.
  public var noticeInterval: Duration

  /// Limits; the defaults are the page server's.
  public init(
    headerTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(30),
    maxConnections: Int = 128, maxConnectionsPerAddress: Int = 32,
    noticeInterval: Duration = .seconds(10)
  ) {
    self.headerTimeout = headerTimeout
    self.idleTimeout = idleTimeout
    self.maxConnections = maxConnections
    self.maxConnectionsPerAddress = maxConnectionsPerAddress
    self.noticeInterval = noticeInterval
  }

  /// 10 s for the headers, 30 s idle, 128 connections, 32 from one address.
  public static let standard = WebServerLimits()
}
