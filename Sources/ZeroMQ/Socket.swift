import CZeroMQ
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// A libzmq socket.
///
/// Threading rule: a socket is owned by exactly one thread for its whole life. It is created,
/// used and closed there; it is deliberately not `Sendable`, so Swift 6 refuses to hand it to
/// another thread. Each TenFoot process runs one loop thread that owns all of its sockets and
/// waits on them with an `EventLoop`; other threads talk to that loop through its stopper's
/// `Waker` and a queue.
///
/// Results: `EINTR` is retried (`SystemCall`), `EAGAIN` (would block, only with `dontWait`) is
/// a value (`false` from `send`, `nil` from `receive`), any other errno throws `ZeroMQError`.
public final class Socket {
  /// The libzmq socket, uncounted: for `Poller`, which reads `ZMQ_FD` (no commands processed)
  /// and counts its own `ZMQ_EVENTS` asks; every other call goes through `handle`.
  let rawHandle: UnsafeMutableRawPointer
  /// How many libzmq calls were made on the socket; `Poller` asks `ZMQ_EVENTS` again only of a
  /// socket used since it last asked.
  let operations = Operations()

  /// The libzmq socket, counted as an operation: any call on a socket may process the commands
  /// in its mailbox, taking the signal of its `ZMQ_FD`.
  var handle: UnsafeMutableRawPointer {
    operations.count &+= 1
    return rawHandle
  }

  /// A socket's count of libzmq calls, shared with the pollers that watch it (so a poller
  /// holds the count, not the socket).
  final class Operations {
    var count: UInt64 = 0
    /// `count` right after a receive with `dontWait` found nothing (`EAGAIN`), `UInt64.max`
    /// before one did. Such a receive processed every command in the socket's mailbox (libzmq
    /// does before it answers `EAGAIN`) and found no input, which is what asking `ZMQ_EVENTS`
    /// would say: while `count` still equals it, `Poller` takes it as the socket's answer
    /// instead of asking (a `getpid` and a zero-timeout `poll` after every drain).
    var drainedAt = UInt64.max

    /// Notes a receive with `dontWait` that found nothing, the last call on the socket.
    func drained() { drainedAt = count }
  }

  /// The message the receive methods fill, kept at a stable address (zmq_msg_t must not
  /// move) and allocated once per socket, not per message.
  let message: UnsafeMutablePointer<zmq_msg_t>
  private var closed = false
  /// Keeps the context alive while the socket is: `zmq_ctx_term` in the context's deinit blocks
  /// until every socket is closed, so a context must never be released before its sockets.
  private let context: Context
  /// The socket's type.
  public let type: SocketType

  /// Creates a socket of `type` in `context`, with LINGER 0 so closing never blocks on
  /// unsent messages (TenFoot's protocol resyncs instead of relying on delivery at exit).
  public init(_ context: Context, _ type: SocketType) throws(ZeroMQError) {
    guard let handle = zmq_socket(context.handle, type.rawValue) else {
      throw ZeroMQError.last("zmq_socket")
    }
    rawHandle = handle
    self.context = context
    self.type = type
    message = .allocate(capacity: 1)
    try setOption(ZMQ_LINGER, Int32(0), "ZMQ_LINGER")
  }

  deinit {
    close()
    message.deallocate()
  }

  /// Closes the socket now (idempotent). Pending outbound messages are dropped (LINGER 0).
  public func close() {
    guard !closed else { return }
    closed = true
    _ = zmq_close(handle)
  }

  // MARK: Endpoints

  /// Binds to an endpoint such as `tcp://127.0.0.1:7700`, `ipc:///run/x.sock` or `inproc://x`.
  public func bind(_ endpoint: String) throws(ZeroMQError) {
    guard zmq_bind(handle, endpoint) == 0 else { throw ZeroMQError.last("zmq_bind(\(endpoint))") }
  }

  /// Connects to an endpoint; libzmq connects (and reconnects) in the background.
  public func connect(_ endpoint: String) throws(ZeroMQError) {
    guard zmq_connect(handle, endpoint) == 0 else {
      throw ZeroMQError.last("zmq_connect(\(endpoint))")
    }
  }

  /// Stops listening on an endpoint bound earlier.
  public func unbind(_ endpoint: String) throws(ZeroMQError) {
    guard zmq_unbind(handle, endpoint) == 0 else {
      throw ZeroMQError.last("zmq_unbind(\(endpoint))")
    }
  }

  /// Disconnects from an endpoint connected earlier.
  public func disconnect(_ endpoint: String) throws(ZeroMQError) {
    guard zmq_disconnect(handle, endpoint) == 0 else {
      throw ZeroMQError.last("zmq_disconnect(\(endpoint))")
    }
  }

  /// The endpoint last bound, with wildcards resolved (e.g. the port chosen for `tcp://*:*`).
  public var lastEndpoint: String {
    get throws(ZeroMQError) { try stringOption(ZMQ_LAST_ENDPOINT, "ZMQ_LAST_ENDPOINT") }
  }

  // MARK: Sending

  /// Sends one frame. Returns false if `dontWait` is set and the socket would block (`EAGAIN`).
  @discardableResult
  public func send(
    _ bytes: UnsafeRawBufferPointer, more: Bool = false, dontWait: Bool = false
  ) throws(ZeroMQError) -> Bool {
    var flags: Int32 = 0
    if more { flags |= ZMQ_SNDMORE }
    if dontWait { flags |= ZMQ_DONTWAIT }
    // zmq_send copies the bytes into a zmq_msg_t before returning.
    let sent = SystemCall.retryingInterrupts {
      zmq_send(handle, bytes.baseAddress, bytes.count, flags)
    }
    if sent >= 0 { return true }
    let error = zmq_errno()
    if error == EAGAIN { return false }
    throw ZeroMQError(errno: error, operation: "zmq_send")
  }

  /// Sends one frame of bytes.
  @discardableResult
  public func send(_ bytes: [UInt8], more: Bool = false, dontWait: Bool = false)
    throws(ZeroMQError) -> Bool
  {
    try withUnsafeBytesTyped(bytes) { buffer throws(ZeroMQError) in
      try send(buffer, more: more, dontWait: dontWait)
    }
  }

  /// Sends one frame holding a string's UTF-8 bytes.
  @discardableResult
  public func send(_ string: String, more: Bool = false, dontWait: Bool = false)
    throws(ZeroMQError) -> Bool
  {
    try send(Array(string.utf8), more: more, dontWait: dontWait)
  }

  /// Sends a multipart message atomically (all frames or, with `dontWait` and `EAGAIN` on the
  /// first frame, none). Returns false only in that would-block case.
  @discardableResult
  public func send(frames: [[UInt8]], dontWait: Bool = false) throws(ZeroMQError) -> Bool {
    for (index, frame) in frames.enumerated() {
      let more = index < frames.count - 1
      // libzmq guarantees the remaining frames of a started multipart message are accepted.
      let sent = try send(frame, more: more, dontWait: dontWait && index == 0)
      if !sent { return false }
    }
    return true
  }

  /// Sends a message of two frames atomically, as `send(frames:dontWait:)` does, without
  /// gathering them into an array first (a reply's peer and envelope, a topic and its body).
  @discardableResult
  public func send(_ first: [UInt8], _ second: [UInt8], dontWait: Bool = false)
    throws(ZeroMQError) -> Bool
  {
    try withUnsafeBytesTyped(second) { second throws(ZeroMQError) in
      try send(first, second, dontWait: dontWait)
    }
  }

  /// Sends a message of two frames atomically, as `send(_:_:dontWait:)` does, the second sent
  /// from memory the caller owns (a reply written into a reused buffer, not copied out of it).
  @discardableResult
  public func send(_ first: [UInt8], _ second: UnsafeRawBufferPointer, dontWait: Bool = false)
    throws(ZeroMQError) -> Bool
  {
    guard try send(first, more: true, dontWait: dontWait) else { return false }
    // libzmq guarantees the remaining frames of a started multipart message are accepted.
    return try send(second)
  }

  // MARK: Receiving

  /// Receives one frame, or nil if `dontWait` is set and nothing is queued.
  /// After it returns, `hasMore` says whether another frame of the same message follows.
  public func receive(dontWait: Bool = false) throws(ZeroMQError) -> [UInt8]? {
    let flags: Int32 = dontWait ? ZMQ_DONTWAIT : 0
    guard zmq_msg_init(message) == 0 else { throw ZeroMQError.last("zmq_msg_init") }
    defer { zmq_msg_close(message) }
    if SystemCall.retryingInterrupts({ zmq_msg_recv(message, handle, flags) }) < 0 {
      let error = zmq_errno()
      if error == EAGAIN {
        if dontWait { operations.drained() }
        return nil
      }
      throw ZeroMQError(errno: error, operation: "zmq_msg_recv")
    }
    let size = zmq_msg_size(message)
    guard size > 0, let data = zmq_msg_data(message) else { return [] }
    return [UInt8](UnsafeRawBufferPointer(start: data, count: size))
  }

  /// Receives every frame of one message, or nil if `dontWait` is set and nothing is queued.
  public func receiveMultipart(dontWait: Bool = false) throws(ZeroMQError) -> [[UInt8]]? {
    guard let first = try receive(dontWait: dontWait) else { return nil }
    var frames = [first]
    while try hasMore {
      // The rest of a multipart message is already here: libzmq delivers messages whole.
      guard let next = try receive() else { break }
      frames.append(next)
    }
    return frames
  }

  /// Whether the last received frame has more frames after it (`ZMQ_RCVMORE`).
  public var hasMore: Bool {
    get throws(ZeroMQError) { try intOption(ZMQ_RCVMORE, "ZMQ_RCVMORE") != 0 }
  }
}

/// `withUnsafeBytes` with a typed throw, which the standard library's rethrows loses.
@inline(__always)
func withUnsafeBytesTyped<R>(
  _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(ZeroMQError) -> R
) throws(ZeroMQError) -> R {
  let result: Result<R, ZeroMQError> = bytes.withUnsafeBytes { buffer in
    do throws(ZeroMQError) { return .success(try body(buffer)) } catch { return .failure(error) }
  }
  return try result.get()
}
