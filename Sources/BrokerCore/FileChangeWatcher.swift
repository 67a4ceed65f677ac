import Foundation
import LinuxFiles

/// Tells the broker's loop when one file is replaced or written, through Linux `inotify` on
/// its directory (so the atomic rename `tenfoot-broker remotes revoke` does is seen, not just
/// writes in place): a `DirectoryWatcher` that answers only for the file's name. The loop
/// polls `fileDescriptor` beside its sockets and calls `drain()`.
///
/// Owned by the loop thread. Without inotify (`init` returns nil) the loop falls back to
/// checking the file on a timer.
final class FileChangeWatcher {
  private let watcher: DirectoryWatcher
  private let name: String

  /// The inotify descriptor to poll for readability.
  var fileDescriptor: Int32 { watcher.fileDescriptor }

  /// Watches `path` (its directory must exist); nil if inotify is unavailable or exhausted.
  init?(path: String) {
    let directory = (path as NSString).deletingLastPathComponent
    name = (path as NSString).lastPathComponent
    guard
      let watcher = try? DirectoryWatcher(
        directory: directory.isEmpty ? "." : directory, reportingWrites: true)
    else { return nil }
    self.watcher = watcher
  }

  /// Reads every queued event; returns whether one concerned the watched file (or the queue
  /// overflowed, when it may have).
  func drain() -> Bool {
    watcher.drain().contains { change in
      switch change {
      case .appeared(let touched), .disappeared(let touched), .written(let touched):
        touched == name
      case .overflowed: true
      }
    }
  }
}
