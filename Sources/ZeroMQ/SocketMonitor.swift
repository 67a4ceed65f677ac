import CZeroMQ
import Synchronization

/// Reads the events `Socket.monitor` publishes: connects a PAIR socket to the monitor endpoint.
/// Owned by the same thread as the socket it watches. Call `Socket.stopMonitor()` on the
/// watched socket before dropping the monitor: libzmq's I/O thread blocks sending events that
/// nobody reads, which stalls every connection in the context.
public final class SocketMonitor {
  /// The PAIR socket events arrive on; exposed so a loop can poll it.
  public let socket: Socket

  /// One monitor event: what happened (`ZMQ_EVENT_*`), its value (an errno, or the ZAP status
  /// code for `ZMQ_EVENT_HANDSHAKE_FAILED_AUTH`), and the endpoint.
  public struct Event: Sendable, Equatable {
    /// The `ZMQ_EVENT_*` bit.
    public var event: Int32
    /// The event's value.
    public var value: UInt32
    /// The endpoint it concerns.
    public var endpoint: String
  }

  /// Numbers the monitors of this process, so two with the same `name` never share an endpoint.
  private static let created = Atomic<Int>(0)

  /// Starts monitoring `watched` for `events` through `inproc://<name>-<n>`, `n` unique in
  /// this process.
  public init(context: Context, watching watched: Socket, name: String, events: Int32)
    throws(ZeroMQError)
  {
    let number = Self.created.wrappingAdd(1, ordering: .relaxed).newValue
    let endpoint = "inproc://\(name)-\(number)"
    try watched.monitor(endpoint, events: events)
    socket = try Socket(context, .pair)
    try socket.connect(endpoint)
  }

  /// The next queued event, or nil if none is waiting.
  public func next() throws(ZeroMQError) -> Event? {
    guard let frames = try socket.receiveMultipart(dontWait: true) else { return nil }
    guard frames.count == 2, frames[0].count == 6 else { return nil }
    let head = frames[0]
    let event = Int32(head[0]) | Int32(head[1]) << 8
    let value =
      UInt32(head[2]) | UInt32(head[3]) << 8 | UInt32(head[4]) << 16 | UInt32(head[5]) << 24
    return Event(event: event, value: value, endpoint: String(decoding: frames[1], as: UTF8.self))
  }
}

/// The `ZMQ_EVENT_*` values TenFoot watches.
public enum SocketEvent {
  /// A security handshake was refused by the peer's authenticator (ZAP status in the value).
  public static let handshakeFailedAuth = Int32(ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
  /// A security handshake failed for a protocol reason (for CURVE: often a wrong server key).
  public static let handshakeFailedProtocol = Int32(ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL)
  /// A security handshake succeeded.
  public static let handshakeSucceeded = Int32(ZMQ_EVENT_HANDSHAKE_SUCCEEDED)
  /// A listener (bound endpoint) was closed.
  public static let closed = Int32(ZMQ_EVENT_CLOSED)
  /// A connection was lost.
  public static let disconnected = Int32(ZMQ_EVENT_DISCONNECTED)
  /// A connect attempt failed (refused, unreachable) and will be retried.
  public static let connectRetried = Int32(ZMQ_EVENT_CONNECT_RETRIED)
  /// A connection was made (before any security handshake).
  public static let connected = Int32(ZMQ_EVENT_CONNECTED)
  /// `handshakeFailedProtocol`'s value when the two sides use different security mechanisms
  /// (CURVE on one, none on the other).
  public static let mechanismMismatch = UInt32(ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH)
}
