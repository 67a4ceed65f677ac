#if canImport(Glibc)
  import Glibc
#endif

/// The process's monotonic clock, which every event timestamp and `sent_at_ns` uses.
public enum MonotonicClock {
  /// Nanoseconds since an arbitrary point (boot), never going backwards.
  public static func nanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }
}
