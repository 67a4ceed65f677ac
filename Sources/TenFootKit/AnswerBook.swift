import FocusEngine

/// Which event an async app's commands answer, as a pure value (the connection keeps it under
/// a lock): the update its `for await` loop took last, until the loop asks for the next one.
///
/// Commands sent while the loop handles an update carry that update's state sequence, so the
/// broker applies them as the answer to that frame: the first one sent for an activation, back
/// or home ends the hold on the inputs after it. When the loop asks for the next update
/// without having sent anything for an awaited one, `close()` names it, and the connection
/// answers it with no commands at once (the held presses go on without waiting for a deadline).
struct AnswerBook: Sendable, Equatable {
  /// The update being handled: its frame's sequence, whether the broker holds inputs behind
  /// it, and whether a command already answered it.
  struct Current: Sendable, Equatable {
    var seq: UInt64
    var awaits: Bool
    var answered = false
  }

  /// The update being handled; nil between updates (and before the first).
  private(set) var current: Current?

  /// The loop took `update`: commands from now on answer it.
  mutating func begin(seq: UInt64, awaits: Bool) {
    current = Current(seq: seq, awaits: awaits)
  }

  /// The loop is done with the current update (it asks for the next): returns the sequence
  /// to answer with no commands when the update awaited an answer and got none.
  mutating func close() -> UInt64? {
    defer { current = nil }
    guard let current, current.awaits, !current.answered else { return nil }
    return current.seq
  }

  /// A command is being sent: the sequence it answers (the current update's; nil between
  /// updates: the screen's latest state), and the current update counts as answered.
  mutating func claim() -> UInt64? {
    current?.answered = true
    return current?.seq
  }
}
