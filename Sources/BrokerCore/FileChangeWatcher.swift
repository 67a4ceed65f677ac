import Foundation
import ZeroMQ

#if canImport(Glibc)
  import Glibc
#endif

/// Tells the broker's loop when one file is replaced or written, through Linux `inotify` on
/// its directory (so the atomic rename `tenfoot-broker remotes revoke` does is seen, not just
/// writes in place). The loop polls `fileDescriptor` beside its sockets and calls `drain()`.
///
/// Owned by the loop thread. Without inotify (`init` returns nil) the loop falls back to
/// checking the file on a timer.
final class FileChangeWatcher {
  /// The inotify descriptor to poll for readability.
  let fileDescriptor: Int32
  private let name: String
  private var buffer = [UInt8](repeating: 0, count: 4096)

  /// Watches `path` (its directory must exist); nil if inotify is unavailable or exhausted.
  init?(path: String) {
    let directory = (path as NSString).deletingLastPathComponent
    name = (path as NSString).lastPathComponent
    let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { return nil }
    let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
    guard inotify_add_watch(fd, directory.isEmpty ? "." : directory, mask) >= 0 else {
      close(fd)
      return nil
    }
    fileDescriptor = fd
  }

  deinit { close(fileDescriptor) }

  /// Reads every queued event; returns whether one concerned the watched file (or the queue
  /// overflowed, when it may have).
  func drain() -> Bool {
    var touched = false
    let header = MemoryLayout<inotify_event>.size
    while true {
      let count = buffer.withUnsafeMutableBytes { bytes in
        SystemCall.retryingInterrupts { read(fileDescriptor, bytes.baseAddress, bytes.count) }
      }
      guard count > 0 else { return touched }
      var offset = 0
      while offset + header <= count {
        let (mask, length) = buffer.withUnsafeBytes { bytes in
          (
            bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
            Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          )
        }
        let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)]
        let eventName = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
        if eventName == name || mask & UInt32(IN_Q_OVERFLOW) != 0 { touched = true }
        offset += header + length
      }
    }
  }
}
