import Foundation
import SystemCalls
import ZoneFencing

#if canImport(Glibc)
  import Glibc
#endif

/// Crash-safe whole-file writes: a reader (or a broker restarted after `kill -9`) sees either
/// the old contents or the new, never a torn mix.
///
/// The recipe: write a temporary file in the same directory, `fsync` it, `rename` it over the
/// target (atomic on POSIX), then `fsync` the directory so the rename itself is durable.
public enum AtomicFile {
  /// Replaces `path` with `bytes`, created with `mode` (e.g. 0o600 for secrets).
  public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600)
    throws(StoreError)
  {
    let directory = (path as NSString).deletingLastPathComponent
    let temporary = "\(path).tmp-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard fd >= 0 else { throw StoreError.system("open \(temporary)", errno) }
    let failure: Int32? = bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let result = SystemCall.retryingInterrupts {
          Glibc.write(fd, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
        }
        if result < 0 { return errno }
        offset += result
      }
      return nil
    }
    if let failure {
      close(fd)
      unlink(temporary)
      throw StoreError.system("write \(temporary)", failure)
    }
    // The mode given to open() is masked by the umask: set it exactly.
    fchmod(fd, mode)
    guard fsync(fd) == 0 else {
      let error = errno
      close(fd)
      unlink(temporary)
      throw StoreError.system("fsync \(temporary)", error)
    }
    close(fd)
    guard rename(temporary, path) == 0 else {
      let error = errno
      unlink(temporary)
      throw StoreError.system("rename \(temporary) to \(path)", error)
    }
    let directoryFD = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryFD >= 0 {
      defer { close(directoryFD) }
      guard fsync(directoryFD) == 0 else { throw StoreError.system("fsync \(directory)", errno) }
    }
  }

  /// The whole contents of `path`, or nil if it does not exist.
  public static func read(_ path: String) throws(StoreError) -> [UInt8]? {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      if access(path, F_OK) != 0 { return nil }
      throw StoreError.system("open \(path)", errno)
    }
    defer { try? handle.close() }
    do {
      return [UInt8](try handle.readToEnd() ?? Data())
    } catch {
      throw StoreError.unreadable(path, "\(error)")
    }
  }
}

/// A state or key file that cannot be read or written, as a sentence for people.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A system call failed.
  case system(String, Int32)
  /// The file exists but its contents are not what TenFoot wrote.
  case unreadable(String, String)
  /// The file was written by a newer TenFoot.
  case unsupportedVersion(String, Int)
  /// The file is open to other users.
  case insecure(String, String)
  /// The store (a zone's PostgreSQL database) cannot be reached or refused the query.
  case unavailable(String, String)
  /// A write was refused: a newer term of the zone exists, this broker is no longer active.
  case fenced(Fenced)

  /// What is wrong and what to do.
  public var description: String {
    switch self {
    case .system(let what, let error): "\(what): \(String(cString: strerror(error)))"
    case .unreadable(let path, let reason): "\(path) is unreadable: \(reason)"
    case .unsupportedVersion(let path, let version):
      "\(path) has format version \(version), newer than this TenFoot understands"
    case .insecure(let path, let reason): "\(path) is not private: \(reason)"
    case .unavailable(let store, let reason): "\(store) is unavailable: \(reason)"
    case .fenced(let fenced): "\(fenced)"
    }
  }
}
