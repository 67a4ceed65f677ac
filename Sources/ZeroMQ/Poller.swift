import CZeroMQ
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// Waits on several sockets and raw file descriptors at once.
///
/// Like the sockets it polls, a poller belongs to one thread. Register items once, then call
/// `poll` and ask `isReadable(_:)` by the index `add` returned. A loop with handlers and
/// timers is an `EventLoop`, which polls with this.
///
/// Why not `zmq_poll`: it asks every socket's `ZMQ_EVENTS` twice per wait (a pass before it
/// blocks and one after it wakes, each a `getpid` and a zero-timeout `poll` of the socket's
/// mailbox) and begins with a zero-timeout `poll` of all descriptors; the broker with CURVE
/// polls three sockets (control, ZAP, pairing), of which a press touches one. This poller keeps
/// what each socket's `ZMQ_EVENTS` said and the socket's operation count then
/// (`Socket.operations`, bumped by every libzmq call on it). A socket not used since it was
/// last asked can have gained input only through a command to its mailbox, which makes its
/// `ZMQ_FD` readable; so it is asked again only when it was used since (a receive, a send or an
/// option may have taken the descriptor's signal with the commands it processed) or its
/// descriptor woke the wait. That is libzmq's contract for `ZMQ_FD` (edge-triggered: check
/// `ZMQ_EVENTS` after every operation), kept per socket. `strace -f` of the durable part's
/// CURVE in-memory broker: about 5.6 fewer system calls (`getpid` and `poll`) a control
/// message; the plain broker's loop thread 29.6 → 27.7 a press and its release (the
/// accounting part). `PollerTests` hold what it reports to a model of the queues.
public struct Poller {
  /// The descriptors `poll(2)` waits on: a socket's `ZMQ_FD` (-1 if it could not be read: the
  /// socket is then asked on every wait, which reports its error) or the raw descriptor.
  private var descriptors: [pollfd] = []
  private var items: [Item] = []

  private struct Item {
    /// The socket's handle and operation count (nil: a raw descriptor).
    var socket: (handle: UnsafeMutableRawPointer, operations: Socket.Operations)?
    /// The socket's operation count when its `ZMQ_EVENTS` was last asked (nil: never).
    var askedAt: UInt64?
    /// Whether the item was readable after the last `poll` (a socket: what its `ZMQ_EVENTS`
    /// said when last asked).
    var readable = false
  }

  /// Creates an empty poller.
  public init() {}

  /// Polls `socket` for input; returns its index.
  @discardableResult
  public mutating func add(_ socket: Socket) -> Int {
    var descriptor: Int32 = -1
    var size = MemoryLayout<Int32>.size
    // Read once: a socket's ZMQ_FD (its mailbox's eventfd) never changes. Without the
    // socket's operations: reading ZMQ_FD processes no commands.
    if zmq_getsockopt(socket.rawHandle, ZMQ_FD, &descriptor, &size) != 0 { descriptor = -1 }
    descriptors.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
    items.append(Item(socket: (socket.rawHandle, socket.operations)))
    return items.count - 1
  }

  /// Polls a raw file descriptor (an eventfd, a pipe, a terminal) for input; returns its index.
  @discardableResult
  public mutating func add(fileDescriptor: Int32) -> Int {
    descriptors.append(pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0))
    items.append(Item(socket: nil))
    return items.count - 1
  }

  /// Stops polling the item at `index`; the items after it move down by one.
  public mutating func remove(at index: Int) {
    descriptors.remove(at: index)
    items.remove(at: index)
  }

  /// Waits until an item is readable or `deadline` passes (nil waits forever); returns the
  /// number of readable items, 0 once the deadline passed. A signal that interrupts the wait
  /// does not end it: the wait goes on for the time left.
  @discardableResult
  public mutating func poll(
    until deadline: ContinuousClock.Instant?, clock: LoopClock = .continuous
  ) throws(ZeroMQError) -> Int {
    var ready = 0
    for index in items.indices {
      guard let socket = items[index].socket else {
        items[index].readable = false
        continue
      }
      // Unused since it was asked, a socket's answer still holds: only a command, which makes
      // its descriptor readable, can have brought input.
      if items[index].askedAt != socket.operations.count {
        // A receive that found nothing was the socket's last call: its answer is the ask's
        // (`Socket.Operations.drainedAt`).
        if socket.operations.drainedAt == socket.operations.count, descriptors[index].fd >= 0 {
          items[index].askedAt = socket.operations.count
          items[index].readable = false
        } else {
          try ask(index)
        }
      }
      if items[index].readable { ready += 1 }
    }
    // With input already there, a zero-timeout pass still reports the other items (the
    // waker, a terminal), as zmq_poll's first pass does, so a busy socket cannot starve them.
    var timeout = ready > 0 ? 0 : clock.pollTimeout(until: deadline)
    while true {
      let count = nfds_t(descriptors.count)
      let woke = descriptors.withUnsafeMutableBufferPointer { buffer in
        Glibc.poll(buffer.baseAddress, count, Int32(clamping: timeout))
      }
      if woke < 0 {
        guard errno == EINTR else { throw ZeroMQError.last("poll") }
      } else if woke > 0 {
        for index in descriptors.indices where descriptors[index].revents != 0 {
          let events = descriptors[index].revents
          descriptors[index].revents = 0
          if items[index].readable { continue }
          if items[index].socket != nil {
            try ask(index)
          } else {
            // As zmq_poll reports a raw descriptor: input, or a hang-up or error.
            items[index].readable =
              events & Int16(POLLIN) != 0 || events & ~Int16(POLLIN | POLLOUT | POLLPRI) != 0
          }
          if items[index].readable { ready += 1 }
        }
      }
      if ready > 0 || timeout == 0 { return ready }
      // Woken by commands that brought no input (a peer connected), or interrupted.
      timeout = clock.pollTimeout(until: deadline)
    }
  }

  /// Asks the socket at `index` for `ZMQ_EVENTS` (processing its pending commands) and
  /// records the answer and the socket's operation count.
  private mutating func ask(_ index: Int) throws(ZeroMQError) {
    guard let socket = items[index].socket else { return }
    // Asking is an operation too: another poller of the same socket (a handler's
    // `awaitInput` on a socket its loop polls) must ask again after this took the signal.
    socket.operations.count &+= 1
    var events: Int32 = 0
    var size = MemoryLayout<Int32>.size
    guard zmq_getsockopt(socket.handle, ZMQ_EVENTS, &events, &size) == 0 else {
      throw ZeroMQError.last("zmq_getsockopt(ZMQ_EVENTS)")
    }
    // A socket without a descriptor to wait on is asked on every wait.
    items[index].askedAt = descriptors[index].fd >= 0 ? socket.operations.count : nil
    items[index].readable = events & ZMQ_POLLIN != 0
  }

  /// Waits until an item is readable or `timeout` passes (nil waits forever); see
  /// `poll(until:)`.
  @discardableResult
  public mutating func poll(timeout: Duration?) throws(ZeroMQError) -> Int {
    try poll(until: timeout.map { ContinuousClock.now.advanced(by: $0) })
  }

  /// Whether the item at `index` was readable after the last `poll`: it has input, or (a raw
  /// descriptor) it hung up or failed, which `zmq_poll` reports as `ZMQ_POLLERR` without
  /// `ZMQ_POLLIN` (a FIFO whose writer closed). A read then returns the end or the error; were
  /// it not dispatched, the poll would return at once forever with nobody reading.
  public func isReadable(_ index: Int) -> Bool {
    items[index].readable
  }

  /// `poll`'s timeout for a wait of `left`: whole milliseconds rounded up (a wait never
  /// ends before its deadline), 0 once it passed.
  static func milliseconds(left: Duration) -> Int {
    guard left > .zero else { return 0 }
    let (seconds, attoseconds) = left.components
    let wholeMilliseconds = attoseconds / 1_000_000_000_000_000
    let partial = attoseconds % 1_000_000_000_000_000 > 0 ? 1 : 0
    let (total, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    guard !overflow, total < Int64(Int32.max) else { return Int(Int32.max) }
    return Int(total + wholeMilliseconds + Int64(partial))
  }
}
