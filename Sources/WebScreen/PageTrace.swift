import Foundation

/// Wall-clock stamps on a frame's way to a developer's page, for `tenfoot-bench`'s accounting
/// of the page path. With `TENFOOT_TRACE_PAGE=1` in the screen's environment each frame message
/// carries `"trace":[rendered, encoded, written]`: microseconds since 1970 when the loop
/// thread began to render the frame, when its JSON was ready, and when the page's connection
/// task took it to write (the clock a page's `performance.timeOrigin + performance.now()`
/// follows, so the page can stamp its own arrival beside them). Off, messages are unchanged.
enum PageTrace {
  /// Whether frame messages carry the stamps (read once, at start).
  static let enabled = ProcessInfo.processInfo.environment["TENFOOT_TRACE_PAGE"] == "1"

  /// Microseconds since 1970, from the real-time clock.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1_000
  }

  /// The frame message `{"frame":…}`, with the stamps `trace` and now when there are any.
  static func message(frame: String, trace: [UInt64]) -> String {
    guard !trace.isEmpty else { return "{\"frame\":\(frame)}" }
    let stamps = (trace + [now()]).map(String.init).joined(separator: ",")
    return "{\"frame\":\(frame),\"trace\":[\(stamps)]}"
  }
}
