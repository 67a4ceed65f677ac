import Foundation
import ZeroMQ

/// Carries answers from the thread they arrive on (PostgreSQL's event loop, the allow-list
/// file's threads) to the broker's loop: a zone's commit in flight, the allow-list's checks and
/// writes. Answers are queued under a lock and the loop woken through its waker, as
/// `PreparationWorker` hands back prepared messages; the loop takes them, oldest first, in its
/// `whenWoken` handler.
final class LoopMailbox<Answer: Sendable>: @unchecked Sendable {
  // @unchecked Sendable is sound: `answers` is only touched under `lock`; `waker` is Sendable.
  private let lock = NSLock()
  private var answers: [Answer] = []
  private let waker: Waker

  /// A mailbox that wakes the loop through `waker`.
  init(waker: Waker) {
    self.waker = waker
  }

  /// Leaves an answer and wakes the loop (on any thread).
  func deliver(_ answer: Answer) {
    lock.withLock { answers.append(answer) }
    waker.wake()
  }

  /// The oldest answer not taken yet, if any (on the loop).
  func take() -> Answer? {
    lock.withLock { answers.isEmpty ? nil : answers.removeFirst() }
  }
}
