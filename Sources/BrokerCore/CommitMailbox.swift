import Foundation
import TenFootStore
import ZeroMQ

/// Carries a store's answer to a commit in flight from the thread it arrives on (PostgreSQL's
/// event loop) to the broker's loop: the answer is kept under a lock and the loop woken through
/// its waker, as `PreparationWorker` hands back prepared messages; the loop takes it in its
/// `whenWoken` handler.
final class CommitMailbox: @unchecked Sendable {
  // @unchecked Sendable is sound: `answer` is only touched under `lock`; `waker` is Sendable.
  private let lock = NSLock()
  private var answer: Result<Void, SessionStoreError>?
  private let waker: Waker

  /// A mailbox that wakes the loop through `waker`.
  init(waker: Waker) {
    self.waker = waker
  }

  /// Leaves the answer and wakes the loop (called once per commit, on any thread).
  func deliver(_ answer: Result<Void, SessionStoreError>) {
    lock.withLock { self.answer = answer }
    waker.wake()
  }

  /// The answer, if it arrived (on the loop); empties the mailbox.
  func take() -> Result<Void, SessionStoreError>? {
    lock.withLock {
      defer { answer = nil }
      return answer
    }
  }
}
