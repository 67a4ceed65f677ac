import CZeroMQ

#if canImport(Glibc)
  import Glibc
#endif

/// A libzmq call failed: the errno, the operation that failed and libzmq's message.
public struct ZeroMQError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The errno libzmq reported (`zmq_errno()`).
  public var errno: Int32
  /// The failing operation, e.g. `zmq_bind(ipc:///run/tenfoot/control.sock)`.
  public var operation: String
  /// libzmq's text for the errno.
  public var message: String

  /// Creates an error from an explicit errno.
  public init(errno: Int32, operation: String) {
    self.errno = errno
    self.operation = operation
    self.message = String(cString: zmq_strerror(errno))
  }

  /// Captures the current `zmq_errno()`.
  static func last(_ operation: @autoclosure () -> String) -> ZeroMQError {
    ZeroMQError(errno: zmq_errno(), operation: operation())
  }

  /// `operation: message (errno N)`.
  public var description: String { "\(operation): \(message) (errno \(errno))" }

  /// The context was terminated while the call was in progress.
  public var isContextTerminated: Bool { errno == ETERM }
}
