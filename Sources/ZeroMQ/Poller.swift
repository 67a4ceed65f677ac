import CZeroMQ

#if canImport(Glibc)
  import Glibc
#endif

/// Waits on several sockets and raw file descriptors at once with `zmq_poll`.
///
/// Like the sockets it polls, a poller belongs to one thread. Register items once, then call
/// `poll` in the loop and ask `isReadable(_:)` by the index `add` returned.
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

  /// Waits until an item is readable or `timeoutMilliseconds` pass (-1 waits forever).
  /// Returns the number of readable items (0 on timeout or when a signal interrupted the wait,
  /// so a loop re-checks its signal pipe).
  @discardableResult
  public mutating func poll(timeoutMilliseconds: Int) throws(ZeroMQError) -> Int {
    let count = items.count
    let result = items.withUnsafeMutableBufferPointer { buffer in
      zmq_poll(buffer.baseAddress, Int32(count), timeoutMilliseconds)
    }
    if result >= 0 { return Int(result) }
    let error = zmq_errno()
    if error == EINTR {
      for index in items.indices { items[index].revents = 0 }
      return 0
    }
    throw ZeroMQError(errno: error, operation: "zmq_poll")
  }

  /// Whether the item at `index` was readable after the last `poll`.
  public func isReadable(_ index: Int) -> Bool {
    items[index].revents & Int16(ZMQ_POLLIN) != 0
  }
}
