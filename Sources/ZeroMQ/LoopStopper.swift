/// Wakes or stops an `EventLoop` from any thread: a signal watcher, a web server's handler,
/// a test.
///
/// The loop polls the stopper's `waker`; `stop()` sets a flag and wakes it, and the loop
/// returns from `run()` before it calls another handler. Queues that feed the loop from
/// other threads hold the stopper's `waker` and call `wake()` after enqueueing.
public final class LoopStopper: Sendable {
  /// The eventfd the loop polls; `wake()` it after handing the loop work.
  public let waker: Waker
  private let stopped = StopFlag()

  /// Creates a stopper with its own eventfd.
  public init() throws(ZeroMQError) {
    waker = try Waker()
  }

  /// Asks the loop to return from `run()` soon. Idempotent; safe from any thread.
  public func stop() {
    stopped.set()
    waker.wake()
  }

  /// Whether `stop()` was called.
  public var isStopped: Bool { stopped.isSet }
}
