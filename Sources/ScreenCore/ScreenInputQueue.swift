import FocusEngine
import Synchronization
import TenFootClient
import TenFootProtocol
import ZeroMQ

/// Input events that arrive on other threads (the web renderer's page acting as a remote),
/// queued until the screen's loop thread sends them to the broker on its control connection.
///
/// Any thread may `enqueue`; only the loop thread drains. The ZeroMQ sockets are never touched
/// off the loop thread: enqueueing only wakes it.
public final class ScreenInputQueue: Sendable {
  private let waker: Waker
  private let pending = Mutex<[RemoteInput]>([])
  /// The most events kept while the loop is busy (as many as the loop's `InputSender` keeps);
  /// older ones are dropped first.
  public static let capacity = InputSender.capacity

  init(waker: Waker) { self.waker = waker }

  /// Queues `event` for the broker and wakes the loop.
  public func enqueue(_ event: RemoteInput) {
    pending.withLock { events in
      if events.count >= Self.capacity { events.removeFirst() }
      events.append(event)
    }
    waker.wake()
  }

  /// Everything queued so far, oldest first; the queue is left empty.
  func drain() -> [RemoteInput] {
    pending.withLock { events in
      defer { events.removeAll(keepingCapacity: true) }
      return events
    }
  }
}
