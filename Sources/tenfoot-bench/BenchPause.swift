import Foundation

/// The idle gap a benchmark leaves before a sample, as a person leaves between presses: the
/// processes on the path sleep, and other work (here: the other paths' processes) runs on the
/// cores and in their caches meanwhile. A pause, not synchronisation: nothing is awaited.
enum BenchPause {
  /// Sleeps for `duration`; returns at once for zero.
  static func idle(_ duration: Duration) {
    guard duration > .zero else { return }
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var left = timespec()
    while nanosleep(&request, &left) != 0, errno == EINTR { request = left }
  }
}
