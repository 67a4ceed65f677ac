import Synchronization

/// The clock an `EventLoop` measures its deadlines on: the monotonic `ContinuousClock` in
/// production, or a `ManualClock` a test advances by hand (as swift-nio's
/// `EmbeddedEventLoop.advanceTime`), so timing rules are tested without sleeping.
///
/// A concrete type, not an existential: the production case is one predictable branch on a
/// stored nil before the `ContinuousClock` read, with no allocation and no witness call.
/// Instants are `ContinuousClock.Instant` either way (a manual clock starts at the real time
/// it was made), so code that keeps deadlines needs no generic parameter.
public struct LoopClock: Sendable {
  /// The manual clock behind this one; nil reads `ContinuousClock`.
  let manual: ManualClock?

  /// The monotonic clock (`CLOCK_MONOTONIC`): what every process runs on.
  public static let continuous = LoopClock(manual: nil)

  /// A clock that moves only when `clock` is advanced.
  public static func manual(_ clock: ManualClock) -> LoopClock { LoopClock(manual: clock) }

  /// The time now.
  @inline(__always)
  public var now: ContinuousClock.Instant {
    if let manual { return manual.now }
    return ContinuousClock.now
  }

  /// `zmq_poll`'s timeout for a wait until `deadline` (nil: forever). On the continuous
  /// clock: whole milliseconds rounded up, 0 once it passed, -1 for nil. On a manual clock
  /// time moves only by `advance(by:)`, which wakes the loop: 0 once the deadline passed,
  /// else forever.
  @inline(__always)
  func pollTimeout(until deadline: ContinuousClock.Instant?) -> Int {
    guard let deadline else { return -1 }
    guard let manual else {
      return Poller.milliseconds(left: ContinuousClock.now.duration(to: deadline))
    }
    return deadline <= manual.now ? 0 : -1
  }
}

/// Virtual time for tests: `now` moves only when `advance(by:)` is called, which then wakes
/// every loop that runs on this clock, so they fire the timers that came due.
///
/// Thread-safe: a test thread advances it while a loop thread reads it.
public final class ManualClock: Sendable {
  private struct State {
    var now: ContinuousClock.Instant
    var wakers: [Waker] = []
  }
  private let state: Mutex<State>

  /// A clock that stands at the real time now until it is advanced.
  public init() { state = Mutex(State(now: ContinuousClock.now)) }

  /// The time now.
  public var now: ContinuousClock.Instant { state.withLock { $0.now } }

  /// Moves time forward by `duration` and wakes the loops on this clock (each fires, on its
  /// own thread, the timers due by then). A negative duration is ignored: time never runs
  /// back.
  public func advance(by duration: Duration) {
    let wakers = state.withLock { state in
      if duration > .zero { state.now = state.now.advanced(by: duration) }
      return state.wakers
    }
    for waker in wakers { waker.wake() }
  }

  /// Sets the time to `instant` if that is later, without waking anyone (the loop that
  /// calls this runs its own iteration next).
  func move(to instant: ContinuousClock.Instant) {
    state.withLock { $0.now = max($0.now, instant) }
  }

  /// Wakes `waker` whenever time moves (a loop's, when the loop is made on this clock).
  func attach(_ waker: Waker) {
    state.withLock { $0.wakers.append(waker) }
  }
}
