import Glibc
import SystemCalls

/// Writing whole buffers to a terminal file descriptor.
public enum TerminalOutput {
  /// Writes every byte of `bytes` to `fd` with as few `write(2)` calls as the kernel allows:
  /// retries `EINTR`, continues after partial writes, and waits with `poll` on `EAGAIN` (a
  /// non-blocking descriptor). Throws `TerminalError` on any other failure.
  public static func writeAll(_ bytes: some Collection<UInt8>, to fd: Int32) throws(TerminalError) {
    let buffer = Array(bytes)
    var failure: TerminalError?
    buffer.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      var offset = 0
      while offset < raw.count {
        let written = SystemCall.retryingInterrupts {
          systemWrite(fd, base + offset, raw.count - offset)
        }
        if written >= 0 {
          offset += written
          continue
        }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK {
          var pending = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          _ = poll(&pending, 1, -1)
          continue
        }
        precondition(code != EBADF && code != EFAULT, "write to a bad descriptor \(fd): a bug")
        failure = TerminalError(
          operation: "write", errno: code, message: "cannot write to the terminal")
        return
      }
    }
    if let failure { throw failure }
  }

  /// Writes the UTF-8 bytes of `text` to `fd`; see ``writeAll(_:to:)``.
  public static func write(_ text: String, to fd: Int32) throws(TerminalError) {
    try writeAll(text.utf8, to: fd)
  }
}

/// `write(2)`, named apart from ``TerminalOutput/write(_:to:)``.
@inline(__always)
func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  Glibc.write(fd, buffer, count)
}
