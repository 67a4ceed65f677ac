import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// Names appearing in, disappearing from (and, if asked, written in) one directory, through
/// Linux `inotify`: how the remote follows hot-plug in `/dev/input/by-id` (udev creates and
/// removes a symlink there per device) and waits for an unplugged node to come back, and how
/// the broker's `FileChangeWatcher` sees its allow-list replaced (an atomic rename) or written
/// in place. The one reader of inotify's event records in the project. Owned by one thread;
/// poll ``fileDescriptor`` for input, then ``drain()``.
public final class DirectoryWatcher {
  /// The watched directory.
  public let directory: String
  /// The inotify descriptor to poll for readability.
  public let fileDescriptor: Int32
  private var buffer = [UInt8](repeating: 0, count: 8192)

  /// What happened to a name.
  public enum Change: Sendable, Equatable {
    /// Created, or moved in (an atomic rename).
    case appeared(String)
    /// Deleted, or moved out.
    case disappeared(String)
    /// Written and closed (only when watching with `reportingWrites`).
    case written(String)
    /// The kernel's queue overflowed: changes were lost, rescan the directory.
    case overflowed
  }

  /// Watches `directory`, which must exist; with `reportingWrites`, files written in place
  /// (closed after writing) too.
  public init(directory: String, reportingWrites: Bool = false) throws(DirectoryWatcherError) {
    let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { throw .cannotWatch(directory: directory, errno: errno) }
    let mask =
      UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)
      | (reportingWrites ? UInt32(IN_CLOSE_WRITE) : 0)
    guard inotify_add_watch(fd, directory, mask) >= 0 else {
      let code = errno
      close(fd)
      throw .cannotWatch(directory: directory, errno: code)
    }
    self.directory = directory
    fileDescriptor = fd
  }

  deinit { close(fileDescriptor) }

  /// Every change queued now, in order; empty when nothing is.
  public func drain() -> [Change] {
    var changes: [Change] = []
    let header = MemoryLayout<inotify_event>.size
    while true {
      let count = buffer.withUnsafeMutableBytes { bytes in
        SystemCall.retryingInterrupts { read(fileDescriptor, bytes.baseAddress, bytes.count) }
      }
      guard count > 0 else { return changes }
      var offset = 0
      while offset + header <= count {
        let (mask, length) = buffer.withUnsafeBytes { bytes in
          (
            bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
            Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          )
        }
        let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)]
        let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
          changes.append(.overflowed)
        } else if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
          changes.append(.appeared(name))
        } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
          changes.append(.disappeared(name))
        } else if mask & UInt32(IN_CLOSE_WRITE) != 0 {
          changes.append(.written(name))
        }
        offset += header + length
      }
    }
  }

  /// Waits up to `timeout` milliseconds (−1: forever) for changes; returns them.
  public func wait(milliseconds timeout: Int32) -> [Change] {
    var item = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
    _ = poll(&item, 1, timeout)
    return drain()
  }
}

/// A directory that cannot be watched.
public enum DirectoryWatcherError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `inotify_init1` or `inotify_add_watch` failed.
  case cannotWatch(directory: String, errno: Int32)

  public var description: String {
    switch self {
    case .cannotWatch(let directory, let code):
      "cannot watch \(directory) for files coming and going: \(String(cString: strerror(code)))"
    }
  }
}
