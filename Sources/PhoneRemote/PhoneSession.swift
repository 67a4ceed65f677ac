import FocusEngine
import ScreenCore
import Synchronization
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// One phone let in by the QR code, as the page server sees it: its name, the secret its page
/// reconnects with, its status for the page, and the page's input waiting for the phone loop
/// (where its `PhoneLink` pairs a key of its own and sends that input as that key, never
/// through the screen's own connection).
///
/// Shared between the page server's tasks and the phone loop's thread: everything mutable is
/// behind a lock.
final class PhoneSession: Sendable {
  /// Where a session is, as its page shows it.
  enum Status: Sendable, Equatable {
    case pairing
    case connected(id: String)
    case revoked
    case failed(String)
  }

  /// The secret in the page's URL after it connected (`/phone?session=…`), so a page that
  /// reloads or reconnects finds its session again.
  let secret = Hex.encode(PairingProof.randomBytes(16))
  let name: String
  /// Wakes the phone loop when the page sent input.
  private let waker: Waker
  private let events = Mutex<[RemoteInput]>([])
  private let state = Mutex(
    (
      status: Status.pairing, watchers: [Int: AsyncStream<Status>.Continuation](), next: 0,
      ended: false
    ))

  /// A session called `name` whose input wakes the loop through `waker`.
  init(name: String, waker: Waker) {
    self.name = name
    self.waker = waker
  }

  /// Whether the session ended (revoked or failed): its page cannot reconnect to it.
  var hasEnded: Bool { state.withLock { $0.ended } }

  /// Queues the page's `event` for the broker (the oldest dropped past
  /// `ScreenInputQueue.capacity`) and wakes the loop.
  func enqueue(_ event: RemoteInput) {
    events.withLock { events in
      if events.count >= ScreenInputQueue.capacity { events.removeFirst() }
      events.append(event)
    }
    waker.wake()
  }

  /// The page's events queued since the last call (on the loop).
  func takeEvents() -> [RemoteInput] {
    events.withLock { events in
      defer { events.removeAll() }
      return events
    }
  }

  /// The session's status now and at every change, until the session ends or the consumer
  /// stops.
  func statuses() -> AsyncStream<Status> {
    let (stream, continuation) = AsyncStream.makeStream(of: Status.self)
    let id: Int? = state.withLock { state in
      continuation.yield(state.status)
      guard !state.ended else { return nil }
      let id = state.next
      state.next += 1
      state.watchers[id] = continuation
      return id
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.watchers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Sets the status and tells every watcher, outside the lock: a continuation's
  /// `onTermination` (which takes the lock) may run inside `yield` or `finish`, and taking the
  /// lock again on the same thread traps.
  func set(_ status: Status) {
    let watchers = state.withLock { state in
      state.status = status
      return Array(state.watchers.values)
    }
    for watcher in watchers { watcher.yield(status) }
  }

  /// Ends the session with its last `status`: every watcher is told and finished.
  func end(_ status: Status) {
    set(status)
    let watchers = state.withLock { state in
      state.ended = true
      defer { state.watchers.removeAll() }
      return Array(state.watchers.values)
    }
    for watcher in watchers { watcher.finish() }
  }
}
