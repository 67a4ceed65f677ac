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
/// One owner (the broker's loop thread) calls it. Its checks for changes and its writes run
/// off that thread (`startCheck`, `startWrite`): the owner only applies what they read or
/// wrote (`finishCheck`, `finishWrite`). An operator's command changes it with `modify`,
/// waiting.
public protocol AllowListSource: AnyObject {
  /// The store, for logs (a file path, or a PostgreSQL URL without password and the zone).
  var path: String { get }
  /// The list as last loaded or written.
  var list: AllowList { get }
  /// The file the broker watches (inotify) for changes; nil: the broker asks every 100 ms.
  var watchedFile: String? { get }
  /// Reloads the list if another process changed it, waiting for the read; returns whether it
  /// did. A store that became unreadable keeps the last good list (and throws so the caller
  /// can log it).
  @discardableResult
  func reloadIfChanged() throws(StoreError) -> Bool
  /// Applies `change` to the current list and writes the result at once, waiting.
  func modify<R>(_ change: (inout AllowList) -> R) throws(StoreError) -> R
  /// Starts a write of `change` that runs on another thread, and returns at once: nil when it
  /// started (`answered` is then called once, on another thread, with what to pass to
  /// `finishWrite` on the owner's thread), the write's result when it ended without starting
  /// (nothing to change), and `answered` is then never called. Writes end in the order they
  /// started. A file applies `change` under its lock to what the file holds then; a zone's
  /// store to the list as last loaded, written by key.
  func startWrite(
    _ change: @escaping @Sendable (inout AllowList) -> Void,
    answered: @escaping @Sendable (Result<AllowListWrite, StoreError>) -> Void
  ) -> Result<Void, StoreError>?
  /// Ends a write with its answer, on the owner's thread: on success `list` is the list it
  /// wrote, and the store's version the one the write left, so a change another process made
  /// after the write (a revoke) is still seen by the next check; on failure `list` stays and
  /// the error is thrown.
  func finishWrite(_ answer: Result<AllowListWrite, StoreError>) throws(StoreError)
  /// Starts a check for changes that reads (and parses) on another thread, and returns at
  /// once: true when it started (`answered` is then called once, on another thread, with what
  /// to pass to `finishCheck` on the owner's thread), false when no check is due (a zone's
  /// store asks at most every 100 ms, and not while its connection has work in flight).
  func startCheck(answered: @escaping @Sendable (AllowListCheck) -> Void) -> Bool
  /// Applies what a check read, on the owner's thread; returns whether the list changed. A
  /// store that could not be read keeps the last good list and throws.
  func finishCheck(_ check: AllowListCheck) throws(StoreError) -> Bool
}

/// What a check for changes of an allow-list found, read off the owner's thread.
public enum AllowListCheck: Sendable, Equatable {
  /// Nothing changed since the list was last loaded.
  case unchanged
  /// The list as the store holds it now, its revoked entries (a zone's store keeps them) and
  /// its version (a file's stamp, a zone's row count and sum of revisions).
  case changed(AllowList, revoked: [AllowList.Entry], version: [Int64])
  /// The store could not be read. `version`: the version seen, not to be read again until it
  /// changes (a file that is unreadable as written); nil: ask again later (a store down).
  case failed(StoreError, version: [Int64]?)
}

/// What a write of an allow-list left in the store, read on the writing thread.
public struct AllowListWrite: Sendable, Equatable {
  /// The list as written.
  public var list: AllowList
  /// The store's version right after the write (a file's stamp); empty when not known (a
  /// zone's store: the next check reloads).
  public var version: [Int64]

  /// The write of `list` that left the store at `version`.
  public init(list: AllowList, version: [Int64]) {
    self.list = list
    self.version = version
  }
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
  /// Where checks stat and read the file, off the owner's thread.
  private let reader = DispatchQueue(label: "tenfoot.allow-list.check")
  /// Where the broker's writes lock, read, change and save the file (fsync included), in the
  /// order they started, off the owner's thread.
  private let writer = DispatchQueue(label: "tenfoot.allow-list.write")

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
    try finishCheck(Self.check(path, against: stamp))
  }

  /// Stats and reads the file on a thread of its own.
  public func startCheck(answered: @escaping @Sendable (AllowListCheck) -> Void) -> Bool {
    let (path, stamp) = (path, stamp)
    reader.async { answered(Self.check(path, against: stamp)) }
    return true
  }

  public func finishCheck(_ check: AllowListCheck) throws(StoreError) -> Bool {
    switch check {
    case .unchanged: return false
    case .changed(let loaded, _, let version):
      list = loaded
      stamp = version
      return true
    case .failed(let error, let version):
      if let version { stamp = version }
      throw error
    }
  }

  /// The file at `path` read if its stamp is not `stamp` (on any thread).
  static func check(_ path: String, against stamp: [Int64]) -> AllowListCheck {
    let now = Self.stamp(path)
    guard now != stamp else { return .unchanged }
    do {
      return .changed(try AllowList.load(path), revoked: [], version: now)
    } catch {
      return .failed(error, version: now)
    }
  }

  /// Applies `change` to the current file contents under the lock and writes the result.
  public func modify<R>(_ change: (inout AllowList) -> R) throws(StoreError) -> R {
    let (written, result) = try Self.write(path, change)
    list = written.list
    stamp = written.version
    return result
  }

  /// Locks, reads, changes and saves the file on a thread of its own.
  public func startWrite(
    _ change: @escaping @Sendable (inout AllowList) -> Void,
    answered: @escaping @Sendable (Result<AllowListWrite, StoreError>) -> Void
  ) -> Result<Void, StoreError>? {
    let path = path
    writer.async {
      do throws(StoreError) {
        answered(.success(try Self.write(path, change).written))
      } catch {
        answered(.failure(error))
      }
    }
    return nil
  }

  public func finishWrite(_ answer: Result<AllowListWrite, StoreError>) throws(StoreError) {
    let written = try answer.get()
    list = written.list
    stamp = written.version
  }

  /// Applies `change` to the file at `path` under an exclusive lock on `path.lock` (read,
  /// change, save atomically with fsync; on any thread); returns what was written, with the
  /// file's stamp taken under the lock, and what `change` returned.
  static func write<R>(_ path: String, _ change: (inout AllowList) -> R) throws(StoreError)
    -> (written: AllowListWrite, result: R)
  {
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
    return (AllowListWrite(list: current, version: Self.stamp(path)), result)
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
