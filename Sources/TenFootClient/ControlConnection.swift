import Foundation
import TenFootProtocol
import ZeroMQ

#if canImport(Glibc)
  import Glibc
#endif

/// A peer's connection to the broker's control socket: a DEALER that sends one request at a
/// time and waits, bounded, for the reply whose `reply_to` matches.
///
/// Owned by one thread, like the socket inside it. One connection lives for the whole process:
/// never one per key press.
public final class ControlConnection {
  /// The socket; exposed so a loop can poll it beside others.
  public let socket: Socket
  /// The endpoint connected to.
  public let endpoint: String
  private let sender: String
  private var seq: UInt64 = 0
  private let context: Context
  /// Watches the connection and its handshake until it has succeeded once, or for as long as
  /// the connection lives once a loop watches it (`watchLink()`).
  private var monitor: SocketMonitor?
  /// Whether a loop reads the monitor (`readLink()`), for as long as the connection lives.
  private var watchesLink = false
  /// Whether a handshake succeeded.
  private var handshaken = false
  /// A failed handshake the monitor reported, until a request is told.
  private var failure: ControlError?
  /// Whether a connection closed since `readLink()` last said so.
  private var closed = false
  /// Whether the one broker closed the connection and no handshake has succeeded since: a
  /// request sent now could go down the closing connection and be lost, so `send` waits.
  private var reconnecting = false
  /// Whether this connection uses CURVE (for saying which side lacks it on a mismatch).
  private let usesCurve: Bool
  /// Whether connect attempts were refused and none ever connected (nothing listening).
  private var refusedOnly = false
  /// Whether any connection was made.
  private var everConnected = false

  /// Connects a DEALER to `endpoint` (or to each of a comma-separated list), as a CURVE client if `curve` is given. libzmq connects
  /// in the background; the first request tells whether a broker is there (and, with CURVE,
  /// whether it let this key in: a ZAP refusal becomes `ControlError.notPaired`).
  public init(context: Context, endpoint: String, sender: String, curve: ClientCurve? = nil)
    throws(ZeroMQError)
  {
    socket = try Socket(context, .dealer)
    self.context = context
    usesCurve = curve != nil
    if let curve {
      try socket.setCurveClient(serverKey: curve.brokerKey, keyPair: curve.keyPair)
    }
    // Watched with or without CURVE: a refused connect (nothing listening) and a security
    // mismatch (CURVE on one side only) are told as such, not as a timeout.
    monitor = try SocketMonitor(
      context: context, watching: socket, name: Self.monitorName, events: Self.monitorEvents)
    let heartbeat = Endpoints.heartbeat(for: endpoint)
    try socket.setHeartbeat(
      intervalMilliseconds: heartbeat.interval, timeoutMilliseconds: heartbeat.timeout)
    try socket.setReconnectInterval(milliseconds: 100, maxMilliseconds: 250)
    // Queue only on a live connection: a request made while the broker is away fails fast
    // (and is retried by the caller) instead of being delivered stale after a restart.
    try socket.setImmediate(true)
    // A zone's brokers (`tcp://a:7700,tcp://b:7700`): with ZMQ_IMMEDIATE requests go only to
    // a connection that is up, that is to the active broker, the only one bound.
    for each in Endpoints.list(endpoint) { try socket.connect(each) }
    self.endpoint = endpoint
    self.sender = sender
  }

  /// Sends `body` and waits up to `timeout` for its reply.
  /// Replies to earlier, abandoned requests are skipped.
  public func request(_ body: Tenfoot_V1_Envelope.OneOf_Body, timeout: Duration)
    throws(ControlError) -> Tenfoot_V1_Envelope.OneOf_Body
  {
    let deadline = ContinuousClock.now + timeout
    seq += 1
    let envelope = Tenfoot_V1_Envelope(
      sender: sender, seq: seq, sentAtNanoseconds: MonotonicClock.nanoseconds(), body: body)
    do {
      return try exchange(envelope, deadline: deadline)
    } catch let error as ControlError {
      throw error
    } catch let error as ZeroMQError {
      if error.errno == EAGAIN { throw timedOut }
      throw ControlError.socket(error)
    } catch {
      throw ControlError.malformedReply("\(error)")
    }
  }

  /// Sends the request and polls for its reply until `deadline`. Throws `ControlError` or
  /// `ZeroMQError`.
  private func exchange(_ envelope: Tenfoot_V1_Envelope, deadline: ContinuousClock.Instant)
    throws -> Tenfoot_V1_Envelope.OneOf_Body
  {
    try awaitHandshake(deadline: deadline)
    // With ZMQ_IMMEDIATE a send blocks while no connection is up: wait for one, bounded.
    let left = ContinuousClock.now.duration(to: deadline) / .milliseconds(1)
    try socket.setSendTimeout(milliseconds: Int32(clamping: max(1, Int(left.rounded(.up)))))
    for frame in try Self.frames(of: envelope) {
      guard try socket.send(frame) else { throw timedOut }
    }
    repeat {
      while let frame = try socket.receive(dontWait: true) {
        let reply: Tenfoot_V1_Envelope
        do {
          reply = try Tenfoot_V1_Envelope.decode(frame)
        } catch {
          throw ControlError.malformedReply("\(error)")
        }
        if reply.replyTo == envelope.seq, let body = reply.body { return body }
      }
    } while try socket.awaitInput(until: deadline)
    throw timedOut
  }

  /// The timeout's error: nothing listening if every connect attempt so far was refused.
  private var timedOut: ControlError {
    refusedOnly ? .nothingListening(endpoint) : .timedOut(endpoint)
  }

  deinit {
    if monitor != nil { try? socket.stopMonitor() }
  }

  /// Waits (bounded) for the first handshake's outcome, so a ZAP refusal, a security mismatch
  /// or a refused connection is reported as such instead of as a timeout.
  private func awaitHandshake(deadline: ContinuousClock.Instant) throws {
    while true {
      try readMonitor()
      if try handshakeOutcome() { return }
      guard let monitor, try monitor.socket.awaitInput(until: deadline) else { break }
    }
    throw timedOut
  }

  /// Whether the handshake succeeded (or is no longer watched); throws the failure the
  /// monitor reported, once.
  private func handshakeOutcome() throws(ControlError) -> Bool {
    if let failure {
      self.failure = nil
      throw failure
    }
    return handshaken || monitor == nil
  }

  /// Reads the monitor's events queued so far, without waiting: keeps a failed handshake for
  /// `handshakeOutcome()` and notes a closed connection; stops the monitor after the first
  /// handshake's outcome unless a loop watches the connection.
  private func readMonitor() throws(ZeroMQError) {
    while let monitor, let event = try monitor.next() {
      switch event.event {
      case SocketEvent.connectRetried:
        refusedOnly = !everConnected
      case SocketEvent.connected:
        everConnected = true
        refusedOnly = false
      case SocketEvent.disconnected:
        closed = true
        // A zone's endpoints: another broker's connection may be up.
        reconnecting = Endpoints.list(endpoint).count == 1
      case SocketEvent.handshakeSucceeded:
        handshaken = true
        reconnecting = false
        failure = nil
        // A broker answered: a later timeout is a broker not answering, whatever another
        // endpoint of a zone refused meanwhile.
        refusedOnly = false
        if !watchesLink { try stopMonitor() }
      case SocketEvent.handshakeFailedProtocol where event.value == SocketEvent.mechanismMismatch:
        try handshakeFailed(.securityMismatch(endpoint, clientUsesCurve: usesCurve))
      case SocketEvent.handshakeFailedAuth:
        try handshakeFailed(.notPaired(endpoint))
      case SocketEvent.handshakeFailedProtocol:
        try handshakeFailed(.handshakeFailed(endpoint))
      default: continue
      }
    }
  }

  private func handshakeFailed(_ error: ControlError) throws(ZeroMQError) {
    failure = error
    if !watchesLink { try stopMonitor() }
  }

  private func stopMonitor() throws(ZeroMQError) {
    // Stop before dropping the reader, or libzmq's I/O thread blocks on the next event.
    try socket.stopMonitor()
    monitor = nil
  }

  /// The events the monitor watches.
  private static let monitorEvents =
    SocketEvent.handshakeFailedAuth | SocketEvent.handshakeSucceeded
    | SocketEvent.handshakeFailedProtocol | SocketEvent.connectRetried | SocketEvent.connected
    | SocketEvent.disconnected
  private static let monitorName = "tenfoot-control-monitor"

  // MARK: Watched by a loop

  /// Watches the connection for as long as it lives (or until `stopWatching()`), for a loop
  /// that polls the returned socket and calls `readLink()` when it is readable: from then on
  /// only `readLink()` reads the connection's events, and `send` and `checkHandshake` throw
  /// the failed handshake it kept.
  public func watchLink() throws(ZeroMQError) -> Socket {
    watchesLink = true
    if let monitor { return monitor.socket }
    let monitor = try SocketMonitor(
      context: context, watching: socket, name: Self.monitorName, events: Self.monitorEvents)
    self.monitor = monitor
    return monitor.socket
  }

  /// Reads the connection's events queued so far, without waiting (a failed handshake is
  /// kept for the next request); returns whether a connection to the broker closed since the
  /// last call: what was sent on it will get no reply.
  public func readLink() throws(ControlError) -> Bool {
    do {
      try readMonitor()
    } catch {
      throw .socket(error)
    }
    defer { closed = false }
    return closed
  }

  /// Stops watching the connection (its loop no longer reads it).
  public func stopWatching() {
    guard watchesLink else { return }
    watchesLink = false
    if monitor != nil { try? stopMonitor() }
  }

  // MARK: Requests a loop waits for

  /// Sends `body` without waiting and returns its sequence number (a reply's `replyTo`), or
  /// nil while no connection is up (`ZMQ_IMMEDIATE`), or, on a watched connection, after the
  /// broker closed it until the next handshake (libzmq may still hold the closing connection):
  /// try again later. For a loop that polls `socket` and takes replies with `nextReply()`; a
  /// refused handshake throws here.
  public func send(_ body: Tenfoot_V1_Envelope.OneOf_Body) throws(ControlError) -> UInt64? {
    try checkHandshake()
    guard !reconnecting else { return nil }
    let envelope = Tenfoot_V1_Envelope(
      sender: sender, seq: seq + 1, sentAtNanoseconds: MonotonicClock.nanoseconds(), body: body)
    let frames = try Self.frames(of: envelope)
    var sent = 0
    do throws(ZeroMQError) {
      guard try socket.send(frames[0], dontWait: true) else { return nil }
      // Its seq is spent even if the rest fails: a later request must not reuse it.
      seq += 1
      sent = 1
      if frames.count > 1 {
        // The rest of a message in parts follows at once (the broker discards a message
        // whose parts stop coming); past the send high-water mark this waits, bounded.
        try socket.setSendTimeout(milliseconds: Self.partSendTimeout)
        for frame in frames.dropFirst() {
          guard try socket.send(frame) else { break }
          sent += 1
        }
      }
    } catch {
      throw ControlError.socket(error)
    }
    guard sent == frames.count else { throw ControlError.timedOut(endpoint) }
    return seq
  }

  /// How long the rest of a message in parts may wait for room in the socket's queue.
  private static let partSendTimeout: Int32 = 2000

  /// What goes on the wire for `envelope`: itself, or its parts if it is larger than a part
  /// (`MessageParts`; the broker's message size limit is about a part). Throws `tooLarge` past
  /// the most parts a message may have.
  private static func frames(of envelope: Tenfoot_V1_Envelope) throws(ControlError)
    -> [[UInt8]]
  {
    guard let frames = MessageParts.frames(of: envelope) else {
      throw ControlError.tooLarge(bytes: envelope.encoded().count)
    }
    return frames
  }

  /// The next reply queued on the socket, without waiting (nil: none); replies that cannot be
  /// decoded or carry no body are skipped.
  public func nextReply() throws(ControlError) -> (
    replyTo: UInt64, body: Tenfoot_V1_Envelope.OneOf_Body
  )? {
    do {
      while let frame = try socket.receive(dontWait: true) {
        guard let reply = try? Tenfoot_V1_Envelope.decode(frame), let body = reply.body else {
          continue
        }
        return (reply.replyTo, body)
      }
      return nil
    } catch {
      throw ControlError.socket(error)
    }
  }

  /// Reads the handshake's outcome so far without waiting: throws `notPaired`, a security
  /// mismatch or a failed handshake once the monitor reported one.
  public func checkHandshake() throws(ControlError) {
    if !watchesLink {
      do {
        try readMonitor()
      } catch {
        throw .socket(error)
      }
    }
    _ = try handshakeOutcome()
  }

  /// Waits (bounded) until this connection's first handshake succeeded, so the next `send`
  /// finds a connection up; for start-up before a loop runs (a test's). Throws the refusal, or
  /// `noAnswer` at the deadline.
  public func awaitConnected(until deadline: ContinuousClock.Instant) throws(ControlError) {
    do {
      try awaitHandshake(deadline: deadline)
    } catch let error as ControlError {
      throw error
    } catch {
      throw ControlError.socket(
        error as? ZeroMQError ?? ZeroMQError(errno: 0, operation: "monitor"))
    }
  }

  /// What a request that got no reply in time failed with: nothing listening if every connect
  /// attempt so far was refused, else a timeout.
  public var noAnswer: ControlError { timedOut }

  /// Says hello as `role` and returns the broker's welcome; any other answer is an error.
  public func hello(role: Tenfoot_V1_PeerRole, client: String, timeout: Duration)
    throws(ControlError) -> Tenfoot_V1_Welcome
  {
    var hello = Tenfoot_V1_Hello()
    hello.role = role
    hello.client = client
    switch try request(.hello(hello), timeout: timeout) {
    case .welcome(let welcome): return welcome
    case .error(let error): throw ControlError.refused(BrokerRefusal(wire: error))
    default: throw ControlError.malformedReply("hello was not answered with welcome")
    }
  }
}

/// Why a control request did not get a usable answer.
public enum ControlError: Error, CustomStringConvertible {
  /// No reply within the timeout: no broker at the endpoint, or it is not answering.
  case timedOut(String)
  /// The broker refused the request.
  case refused(BrokerRefusal)
  /// The reply could not be decoded or was of the wrong kind.
  case malformedReply(String)
  /// The socket failed.
  case socket(ZeroMQError)
  /// The broker's ZAP handler refused this key (not paired, or revoked).
  case notPaired(String)
  /// The CURVE handshake failed (for example the broker's key is not the one pinned).
  case handshakeFailed(String)
  /// Every connect attempt was refused until the deadline: nothing listens at the endpoint.
  case nothingListening(String)
  /// One side uses CURVE and the other does not (`clientUsesCurve`: which side this is).
  case securityMismatch(String, clientUsesCurve: Bool)
  /// The request is larger than the protocol's largest message in parts (`MessageParts`).
  case tooLarge(bytes: Int)

  /// Whether the broker did not answer (no reply in time, or nothing listening): worth trying
  /// again later, unlike a refusal.
  public var isNoAnswer: Bool {
    switch self {
    case .timedOut, .nothingListening: true
    default: false
    }
  }

  /// A sentence for people.
  public var description: String {
    switch self {
    case .timedOut(let endpoint): "no broker answered at \(endpoint)"
    case .refused(let refusal): "broker refused: \(refusal)"
    case .malformedReply(let reason): "unreadable reply from broker: \(reason)"
    case .socket(let error): "socket error: \(error)"
    case .notPaired(let endpoint):
      "not paired: run tenfoot-remote pair (the broker at \(endpoint) refused this key)"
    case .handshakeFailed(let endpoint):
      "the secure handshake with \(endpoint) failed: the broker's key may have changed"
    case .nothingListening(let endpoint) where endpoint.hasPrefix("ipc://"):
      "no broker is running at \(endpoint): start tenfoot-broker (with the same runtime "
        + "directory, $TENFOOT_RUNTIME_DIR)"
    case .nothingListening(let endpoint) where endpoint.contains(","):
      "no broker is listening at \(endpoint) (connections refused): the zone's brokers are "
        + "down or all standing by (a standby binds nothing until it takes over)"
    case .nothingListening(let endpoint):
      "nothing is listening at \(endpoint) (connection refused): check the host and port "
        + "(tenfoot-broker prints them in its ready line; tenfoot-broker invite prints the "
        + "whole connection string)"
    case .securityMismatch(let endpoint, true):
      "the broker at \(endpoint) runs without CURVE (--insecure): give --insecure here too "
        + "(trusted networks only), or restart the broker without it"
    case .tooLarge(let bytes):
      "the request is \(bytes / 1024) KiB, more than a message may be even in parts "
        + "(\(MessageParts.maxParts) of \(MessageParts.partSize / 1024) KiB)"
    case .securityMismatch(let endpoint, false):
      "the broker at \(endpoint) speaks CURVE: drop --insecure and give its key "
        + "(--broker with the line tenfoot-broker invite prints, or --broker-key)"
    }
  }
}
