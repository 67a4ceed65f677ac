import CZeroMQ
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// Waits on several sockets and raw file descriptors at once with `zmq_poll`.
///
/// Like the sockets it polls, a poller belongs to one thread. Register items once, then call
/// `poll` and ask `isReadable(_:)` by the index `add` returned. A loop with handlers and
/// timers is an `EventLoop`, which polls with this.
public struct Poller {
  private var items: [zmq_pollitem_t] = []

  /// Creates an empty poller.
  public init() {}

  /// Polls `socket` for input; returns its index.
  @discardableResult
  public mutating func add(_ socket: Socket) -> Int {
    items.append(
      zmq_pollitem_t(socket: socket.handle, fd: -1, events: Int16(ZMQ_POLLIN), revents: 0))
    return items.count - 1
  }

  /// Polls a raw file descriptor (an eventfd, a pipe, a terminal) for input; returns its index.
  @discardableResult
  public mutating func add(fileDescriptor: Int32) -> Int {
    items.append(
      zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: Int16(ZMQ_POLLIN), revents: 0))
    return items.count - 1
  }

  /// Stops polling the item at `index`; the items after it move down by one.
  public mutating func remove(at index: Int) {
    items.remove(at: index)
  }

  /// Waits until an item is readable or `deadline` passes (nil waits forever); returns the
  /// number of readable items, 0 once the deadline passed. A signal that interrupts the wait
  /// does not end it: the wait goes on for the time left.
  @discardableResult
  public mutating func poll(
    until deadline: ContinuousClock.Instant?, clock: LoopClock = .continuous
  ) throws(ZeroMQError) -> Int {
    let count = Int32(items.count)
    let result = items.withUnsafeMutableBufferPointer { buffer in
      SystemCall.retryingInterrupts {
        zmq_poll(buffer.baseAddress, count, clock.pollTimeout(until: deadline))
      }
    }
    guard result >= 0 else { throw ZeroMQError.last("zmq_poll") }
    return Int(result)
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
    items[index].revents & Int16(ZMQ_POLLIN | ZMQ_POLLERR) != 0
  }

  /// `zmq_poll`'s timeout for a wait of `left`: whole milliseconds rounded up (a wait never
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
