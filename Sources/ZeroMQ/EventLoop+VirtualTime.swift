extension EventLoop {
  /// Moves a loop on a `ManualClock` forward by `duration` on the calling thread, as
  /// swift-nio's `EmbeddedEventLoop.advanceTime(by:)`: time steps to each timer deadline
  /// that comes due on the way, in order, and an iteration runs there (its poll does not
  /// wait), so a timer sees `now` at its own deadline and the timers it schedules fire too if
  /// they fall within `duration`. One last iteration runs at the new time, dispatching what
  /// is readable.
  ///
  /// For a loop a test drives itself: call it on the loop's thread, never while `run()` runs
  /// (a loop running on another thread is advanced through its `ManualClock`). A timer that
  /// keeps rescheduling itself with no delay never lets this return, as in NIO.
  public func advance(by duration: Duration) throws {
    guard let manual = clock.manual else {
      preconditionFailure("advance(by:) moves a loop on a ManualClock; this one is continuous")
    }
    let target = manual.now.advanced(by: max(.zero, duration))
    while let deadline = nextDeadline, deadline <= target, !stopper.isStopped {
      manual.move(to: deadline)
      try runOnce(waitingUntil: deadline)
    }
    manual.move(to: target)
    if !stopper.isStopped { try runOnce(waitingUntil: target) }
  }
}
