#if canImport(Glibc)
  import Glibc
#endif

/// The one place the project retries a call a signal interrupted.
///
/// Like swift-nio's `syscall(blocking:)`: a call that fails with `EINTR` did nothing and is
/// made again; every other result, success or failure, goes back to the caller, who turns a
/// negative result into its own error (or `EAGAIN` into a value). libzmq reports its errors
/// through the same thread-local `errno` (`zmq_errno()` exists only for Windows DLLs), so one
/// helper covers libzmq and the C library alike: the ZeroMQ module, the inotify watcher, the
/// terminal, input devices, files written atomically, assets and child processes all use it.
///
/// Three loops are written out on purpose, because `EINTR` means something else there: the
/// terminal guard's write runs in a signal handler; a loop callback that reads (the
/// interactive remote) or polls (the device runner, the CEC adapter) returns to its loop,
/// which recomputes its timers before it waits again.
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
