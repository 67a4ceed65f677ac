import Glibc

/// A failed terminal system call: the operation, its `errno` and a sentence for people.
public struct TerminalError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The failing call, like `"tcgetattr"` or `"write"`.
  public let operation: String
  /// The `errno` the call left, or 0 when the failure was not a system call's.
  public let errno: Int32
  /// What went wrong, for people.
  public let message: String

  /// Creates an error.
  public init(operation: String, errno: Int32, message: String) {
    self.operation = operation
    self.errno = errno
    self.message = message
  }

  /// Creates an error from the current `errno` of a failed call.
  static func fromErrno(_ operation: String, _ message: String) -> TerminalError {
    let code = currentErrno()
    return TerminalError(operation: operation, errno: code, message: message)
  }

  /// `"<message> (<operation>: <strerror>)"`.
  public var description: String {
    guard errno != 0 else { return "\(message) (\(operation))" }
    return "\(message) (\(operation): \(String(cString: strerror(errno))))"
  }
}

/// The calling thread's `errno` (a free function: `TerminalError` has a property of that name).
@inline(__always)
func currentErrno() -> Int32 { errno }
