import CZeroMQ
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// Wakes a poll loop from another thread through a Linux `eventfd`.
///
/// An `EventLoop` polls its stopper's waker; any thread calls `wake()`; the loop calls
/// `drain()` and then runs its `whenWoken` handler, which looks at its queue. Thread-safe: eventfd reads and writes are atomic.
public final class Waker: Sendable {
  /// The eventfd to poll for readability.
  public let fileDescriptor: Int32

  /// Creates a non-blocking, close-on-exec eventfd.
  public init() throws(ZeroMQError) {
    let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
    guard fd >= 0 else { throw ZeroMQError(errno: errno, operation: "eventfd") }
    fileDescriptor = fd
  }

  deinit { close(fileDescriptor) }

  /// Makes the eventfd readable until the next `drain()`.
  public func wake() {
    var one: UInt64 = 1
    // EAGAIN (the counter at its maximum) still leaves the eventfd readable: nothing lost.
    _ = SystemCall.retryingInterrupts { write(fileDescriptor, &one, 8) }
  }

  /// Resets the eventfd after a wake-up.
  public func drain() {
    var value: UInt64 = 0
    // EAGAIN: already drained (non-blocking), which is the point.
    _ = SystemCall.retryingInterrupts { read(fileDescriptor, &value, 8) }
  }
}
