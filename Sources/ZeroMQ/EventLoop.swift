/// The loop every TenFoot process runs on its one socket-owning thread: it polls sockets and
/// raw file descriptors, runs timers, and can be woken or stopped from any thread.
///
/// Like the sockets it polls, a loop belongs to the thread that calls `run()` (it is not
/// `Sendable`): register handlers, schedule timers and `run()` there. Other threads reach it
/// only through its `stopper` (and the stopper's `waker`).
///
/// One iteration:
/// 1. `zmq_poll` until an item is readable or the earliest timer is due (forever with no
///    timer). A signal that interrupts the wait is retried with the time left (`EINTR` is
///    retried in one place, `SystemCall`).
/// 2. If the stopper woke it: drain the eventfd, and return if `stop()` was called; else run
///    the `whenWoken` handler (other threads queued work).
/// 3. Timers that are due, earliest first (equal deadlines in the order they were scheduled).
///    A timer scheduled while timers fire waits for the next iteration, so a zero-delay
///    reschedule cannot starve the sockets.
/// 4. The handler of each readable item, in the order the items were registered.
/// 5. The `eachIteration` handlers (checks that must run after any event).
///
/// Readiness is level-triggered (`zmq_poll`): a handler that leaves input queued (to bound its
/// work) is called again on the next iteration without waiting.
///
/// `stopper.stop()` takes effect before the next handler: whatever the iteration had left to
/// dispatch is dropped. A handler that throws ends `run()` with that error. Either way the
/// loop keeps its registrations, and `run()` may be called again (a stopped loop returns at
/// once: the stop is final).
///
/// Time is the loop's `clock`: the monotonic clock, or in tests a `ManualClock` that moves only
/// when advanced (see `advance(by:)`).
///
/// Cost: one `zmq_poll` and one clock read per iteration, timers in a sorted array
/// (O(n) insertion, fine for the handful a process keeps), no allocation on the message path.
public final class EventLoop {
  /// Wakes or stops the loop from any thread.
  public let stopper: LoopStopper
  /// What deadlines are measured on (`LoopClock.continuous` unless a test injects time).
  public let clock: LoopClock
  private var poller = Poller()
  /// The handlers of the polled items, in the poller's order after the waker (nil: stopped,
  /// removed before the next poll).
  private var readHandlers: [ReadHandler] = []
  private var nextReadSequence: UInt64 = 0
  private var hasStoppedReads = false
  private var wokenHandler: (() throws -> Void)?
  private var iterationHandlers: [() throws -> Void] = []
  /// Pending timers, sorted by (deadline, sequence).
  private var timers: [Timer] = []
  private var nextTimerSequence: UInt64 = 0

  private struct Timer {
    var deadline: ContinuousClock.Instant
    var sequence: UInt64
    var body: () throws -> Void

    func precedes(_ other: Timer) -> Bool {
      (deadline, sequence) < (other.deadline, other.sequence)
    }
  }

  private struct ReadHandler {
    var sequence: UInt64
    var body: (() throws -> Void)?
  }

  /// Names a registered file descriptor or socket, to stop reading it.
  public struct ReadID: Hashable, Sendable {
    fileprivate let sequence: UInt64
  }

  /// Names a scheduled timer, to cancel it.
  public struct TimerID: Hashable, Sendable {
    fileprivate let sequence: UInt64
  }

  /// Creates a loop with its own stopper.
  public convenience init(clock: LoopClock = .continuous) throws(ZeroMQError) {
    self.init(stopper: try LoopStopper(), clock: clock)
  }

  /// Creates a loop that `stopper` stops: a component can hand out its stopper before it
  /// builds the loop (for example on the thread that will run it). On a manual `clock` the
  /// loop wakes whenever a test advances it.
  public init(stopper: LoopStopper, clock: LoopClock = .continuous) {
    self.stopper = stopper
    self.clock = clock
    clock.manual?.attach(stopper.waker)
    poller.add(fileDescriptor: stopper.waker.fileDescriptor)
  }

  /// The current time of the clock deadlines are measured on.
  public var now: ContinuousClock.Instant { clock.now }

  // MARK: Registration

  /// Calls `handler` whenever `socket` has input. The handler should take what is queued with
  /// `dontWait` (it may leave some: it is called again on the next iteration).
  @discardableResult
  public func whenReadable(_ socket: Socket, _ handler: @escaping () throws -> Void) -> ReadID {
    poller.add(socket)
    return addReadHandler(handler)
  }

  /// Calls `handler` whenever `fileDescriptor` (a pipe, an eventfd, a terminal, inotify) is
  /// readable. The handler must read it, or the loop spins.
  @discardableResult
  public func whenReadable(fileDescriptor: Int32, _ handler: @escaping () throws -> Void)
    -> ReadID
  {
    poller.add(fileDescriptor: fileDescriptor)
    return addReadHandler(handler)
  }

  /// Stops reading a file descriptor (a device unplugged) or a socket (a connection replaced):
  /// its handler is not called again, even later in this iteration, and it is not polled
  /// again, so it may be closed once this returns. Does nothing if it was stopped already.
  public func stopReading(_ id: ReadID) {
    guard let index = readHandlers.firstIndex(where: { $0.sequence == id.sequence }) else { return }
    readHandlers[index].body = nil
    hasStoppedReads = true
  }

  @discardableResult
  private func addReadHandler(_ body: @escaping () throws -> Void) -> ReadID {
    readHandlers.append(ReadHandler(sequence: nextReadSequence, body: body))
    nextReadSequence += 1
    return ReadID(sequence: nextReadSequence - 1)
  }

  /// Drops the stopped handlers and their poll items (between iterations: indices stay put
  /// while an iteration dispatches).
  private func removeStoppedReads() {
    hasStoppedReads = false
    for index in readHandlers.indices.reversed() where readHandlers[index].body == nil {
      readHandlers.remove(at: index)
      poller.remove(at: index + 1)
    }
  }

  /// Calls `handler` after another thread called `stopper.waker.wake()` (several wake-ups
  /// before the loop gets to it count as one). Replaces an earlier handler.
  public func whenWoken(_ handler: @escaping () throws -> Void) {
    wokenHandler = handler
  }

  /// Calls `handler` at the end of every iteration, after the timers and readiness handlers.
  public func eachIteration(_ handler: @escaping () throws -> Void) {
    iterationHandlers.append(handler)
  }

  // MARK: Timers

  /// Runs `body` once, on the loop, at the first iteration at or after `deadline`.
  @discardableResult
  public func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping () throws -> Void)
    -> TimerID
  {
    let timer = Timer(deadline: deadline, sequence: nextTimerSequence, body: body)
    nextTimerSequence += 1
    let index = timers.firstIndex { timer.precedes($0) } ?? timers.endIndex
    timers.insert(timer, at: index)
    return TimerID(sequence: timer.sequence)
  }

  /// Runs `body` once, on the loop, `delay` from now.
  @discardableResult
  public func schedule(after delay: Duration, _ body: @escaping () throws -> Void) -> TimerID {
    schedule(at: clock.now.advanced(by: delay), body)
  }

  /// Cancels a timer that has not fired yet; does nothing if it fired or was cancelled.
  public func cancel(_ timer: TimerID) {
    timers.removeAll { $0.sequence == timer.sequence }
  }

  /// The deadline of the earliest pending timer.
  public var nextDeadline: ContinuousClock.Instant? { timers.first?.deadline }

  // MARK: Running

  /// Runs iterations until `stopper.stop()` is called (before or during the run) or a handler
  /// throws. Throws `ZeroMQError` if polling fails (the context was terminated), or what a
  /// handler threw.
  public func run() throws {
    while !stopper.isStopped {
      try runOnce()
    }
  }

  /// One iteration (see the type's documentation); returns early if stopped.
  func runOnce() throws {
    try runOnce(waitingUntil: timers.first?.deadline)
  }

  /// One iteration whose poll waits until `deadline` at most (nil: until an item is readable).
  func runOnce(waitingUntil deadline: ContinuousClock.Instant?) throws {
    if hasStoppedReads { removeStoppedReads() }
    try poller.poll(until: deadline, clock: clock)
    if poller.isReadable(0) {
      stopper.waker.drain()
      if stopper.isStopped { return }
      try wokenHandler?()
    }
    try fireDueTimers()
    for index in readHandlers.indices where poller.isReadable(index + 1) {
      if stopper.isStopped { return }
      try readHandlers[index].body?()
    }
    for handler in iterationHandlers {
      if stopper.isStopped { return }
      try handler()
    }
  }

  /// Fires the timers due now that were scheduled before this call.
  private func fireDueTimers() throws {
    guard let first = timers.first else { return }
    let now = clock.now
    guard first.deadline <= now else { return }
    let scheduledBefore = nextTimerSequence
    while let index = timers.firstIndex(where: { $0.sequence < scheduledBefore }),
      timers[index].deadline <= now
    {
      let timer = timers.remove(at: index)
      if stopper.isStopped { return }
      try timer.body()
    }
  }
}
