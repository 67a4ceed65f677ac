import Foundation
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// Where the broker keeps its allow-list (paired remotes, screens allowed by key; a revoke
/// removes an entry): a file in the data directory (`AllowListStore`), or a zone's PostgreSQL
/// store shared by the zone's brokers, so a standby honours what the old active broker paired
/// and what was revoked there.
///
/// One owner (the broker's loop thread) calls it.
public protocol AllowListSource: AnyObject {
  /// The store, for logs (a file path, or a PostgreSQL URL without password and the zone).
  var path: String { get }
  /// The list as last loaded or written.
  var list: AllowList { get }
  /// The file the broker watches (inotify) for changes; nil: the broker asks every 100 ms.
  var watchedFile: String? { get }
  /// Reloads the list if another process changed it; returns whether it did. A store that
  /// became unreadable keeps the last good list (and throws so the caller can log it).
  @discardableResult
  func reloadIfChanged() throws(StoreError) -> Bool
  /// Applies `change` to the current list and writes the result at once.
  func modify<R>(_ change: (inout AllowList) -> R) throws(StoreError) -> R
}

/// The allow-list file shared by the running broker and `tenfoot-broker peers …`: changes are
/// made under an exclusive `flock` on a lock file beside it (read, change, write atomically),
/// and the broker reloads the file when its inode, size or modification time changes.
public final class AllowListStore: AllowListSource {
  /// The allow-list file.
  public let path: String
  /// The list as last loaded or written.
  public private(set) var list: AllowList
  private var stamp: [Int64]
  /// The file itself: the broker watches it with inotify.
  public var watchedFile: String? { path }

  /// Loads `path` (empty if missing).
  public init(path: String) throws(StoreError) {
    self.path = path
    list = try AllowList.load(path)
    stamp = Self.stamp(path)
  }

  /// Reloads the file if another process changed it; returns whether it did. A file that
  /// became unreadable keeps the last good list (and throws so the caller can log it).
  @discardableResult
  public func reloadIfChanged() throws(StoreError) -> Bool {
    let now = Self.stamp(path)
    guard now != stamp else { return false }
    stamp = now
    list = try AllowList.load(path)
    return true
  }

  /// Applies `change` to the current file contents under the lock and writes the result.
  public func modify<R>(_ change: (inout AllowList) -> R) throws(StoreError) -> R {
    let lockPath = path + ".lock"
    let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw StoreError.system("open \(lockPath)", errno) }
    defer { close(fd) }
    guard SystemCall.retryingInterrupts({ flock(fd, LOCK_EX) }) == 0 else {
      throw StoreError.system("flock \(lockPath)", errno)
    }
    defer { flock(fd, LOCK_UN) }
    var current = try AllowList.load(path)
    let result = change(&current)
    try current.save(path)
    list = current
    stamp = Self.stamp(path)
    return result
  }

  private static func stamp(_ path: String) -> [Int64] { FileStamp.of(path) }
}

/// What tells a changed file from the one last read: its inode, size and modification time
/// (empty if it does not exist). A replaced file (written atomically) has a new inode.
public enum FileStamp {
  /// The stamp of the file at `path`.
  public static func of(_ path: String) -> [Int64] {
    var info = stat()
    guard stat(path, &info) == 0 else { return [] }
    return [
      Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec),
      Int64(info.st_mtim.tv_nsec),
    ]
  }
}
