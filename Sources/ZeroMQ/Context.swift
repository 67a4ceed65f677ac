import CZeroMQ
import SystemCalls

/// A libzmq context: the I/O threads every socket of a process shares.
///
/// libzmq contexts are thread-safe, so this type is `Sendable`; sockets are not.
public final class Context: @unchecked Sendable {
  // @unchecked Sendable is sound: libzmq documents the context as thread-safe, and `handle`
  // is immutable after init.
  let handle: UnsafeMutableRawPointer

  /// Creates a context with `ioThreads` I/O threads (1 is right for a few thousand messages/s
  /// per thread; the broker may ask for more).
  public init(ioThreads: Int32 = 1) throws(ZeroMQError) {
    guard let handle = zmq_ctx_new() else { throw ZeroMQError.last("zmq_ctx_new") }
    self.handle = handle
    if ioThreads != 1 {
      guard zmq_ctx_set(handle, ZMQ_IO_THREADS, ioThreads) == 0 else {
        throw ZeroMQError.last("zmq_ctx_set(ZMQ_IO_THREADS)")
      }
    }
  }

  /// Makes blocking calls on every socket of this context fail with `ETERM`.
  ///
  /// Sockets must still be closed by their owners; `deinit` then finishes the termination.
  public func shutdown() {
    _ = zmq_ctx_shutdown(handle)
  }

  deinit {
    // zmq_ctx_term blocks until every socket is closed; retry on EINTR as the man page says.
    _ = SystemCall.retryingInterrupts { zmq_ctx_term(handle) }
  }

  /// The libzmq version this process runs against, e.g. (4, 3, 4).
  public static var version: (major: Int32, minor: Int32, patch: Int32) {
    var major: Int32 = 0
    var minor: Int32 = 0
    var patch: Int32 = 0
    zmq_version(&major, &minor, &patch)
    return (major, minor, patch)
  }

  /// Whether libzmq was built with a capability, e.g. "curve" or "ipc".
  public static func has(_ capability: String) -> Bool {
    zmq_has(capability) != 0
  }
}
