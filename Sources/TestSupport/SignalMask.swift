import Foundation

/// Starts children the way a shell or systemd does: with no signal blocked.
///
/// `posix_spawn` (which Foundation's `Process` uses, without `POSIX_SPAWN_SETSIGMASK`) gives
/// the child the spawning thread's signal mask, and test code runs on libdispatch worker
/// threads, which block nearly every signal. Children spawned from there started with SIGINT
/// and SIGTERM blocked: that hid a start-up race in which a process lost a SIGTERM (a blocked
/// signal is kept pending, an unblocked ignored one is discarded), and it made handler-based
/// signal code look broken (a handler never runs for a blocked signal).
public enum SignalMask {
  /// Runs `body` (a spawn) with nothing blocked on this thread, then puts the mask back. The
  /// mask is per thread; for that instant this thread may take a signal meant for the test
  /// process, exactly as its main thread (which blocks nothing) may at any time.
  public static func withNothingBlocked<Result>(_ body: () throws -> Result) rethrows -> Result {
    var nothing = sigset_t()
    sigemptyset(&nothing)
    var saved = sigset_t()
    _ = pthread_sigmask(SIG_SETMASK, &nothing, &saved)
    defer { _ = pthread_sigmask(SIG_SETMASK, &saved, nil) }
    return try body()
  }

  /// The signals `pid` blocks, from `/proc/PID/status` (`SigBlk`), or nil if it cannot be read.
  public static func blocked(pid: Int32) -> UInt64? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("SigBlk:") {
      return UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    }
    return nil
  }
}
