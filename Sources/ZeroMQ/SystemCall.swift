#if canImport(Glibc)
  import Glibc
#endif

/// The one place the ZeroMQ module retries a call a signal interrupted.
///
/// Like swift-nio's `syscall(blocking:)`: a call that fails with `EINTR` did nothing and is
/// made again; every other result, success or failure, goes back to the caller, who turns a
/// negative result into a `ZeroMQError` (or `EAGAIN` into a value). libzmq reports its errors
/// through the same thread-local `errno` (`zmq_errno()` exists only for Windows DLLs), so one
/// helper covers libzmq and the C library alike. Modules above ZeroMQ use it for their own
/// descriptors (the broker's inotify watcher).
public enum SystemCall {
  /// Calls `body` until it returns non-negative or fails with something other than `EINTR`.
  /// `body` runs again from the start, so a call with a timeout recomputes what is left.
  @inline(__always)
  public static func retryingInterrupts<Result: SignedInteger>(_ body: () -> Result) -> Result {
    while true {
      let result = body()
      if result >= 0 || errno != EINTR { return result }
    }
  }
}
