import TenFootStore

/// Group commit's bookkeeping for one loop iteration: the requests of the iteration are
/// applied at once, their replies and publications held back, and everything they changed is
/// written in one transaction; only then do the outputs go out.
///
/// Pure data: it knows neither sockets nor the store. `Session` is whatever a rollback puts
/// back (the broker's session value), `Output` whatever is held (a reply or a publication).
/// Every output is tagged with the screen its request touched, so that when the commit fails
/// the outputs of the screens it would have changed can be refused (replies) or dropped
/// (publications), while those of other screens go out as they are.
struct CommitBatch<Session, Output> {
  /// The value each touched screen had before the batch (nil: no session), first touch only.
  private(set) var before: [String: Session?] = [:]
  /// The records to write, by screen: each screen's latest value in this batch.
  private(set) var changes: [String: SessionRow] = [:]
  /// Held outputs in order, each with the screen it depends on (nil: none).
  private var outputs: [(screen: String?, output: Output)] = []

  /// Whether nothing is held.
  var isEmpty: Bool { outputs.isEmpty && changes.isEmpty && before.isEmpty }

  /// Notes that a request is about to touch `screen`, whose value is `current`; only the
  /// first touch in the batch is kept (the value to roll back to).
  mutating func touch(_ screen: String, current: Session?) {
    if before.index(forKey: screen) == nil { before[screen] = .some(current) }
  }

  /// Records that the batch changes `row.screenID`'s durable record to `record`.
  mutating func change(_ row: SessionRow) {
    changes[row.screenID] = row
  }

  /// Holds `output` until the batch ends.
  mutating func hold(_ output: Output, screen: String?) {
    outputs.append((screen, output))
  }

  /// The outcome of ending a batch.
  struct Ending {
    /// What to send, in the order it was produced.
    var outputs: [Output]
    /// The screens to put back as they were before the batch (nil: remove the session).
    var rollback: [String: Session?]
  }

  /// Ends the batch: after a successful commit (`committed`) every output goes out; after a
  /// failed one the changed screens are rolled back, and their outputs are passed through
  /// `refusing` (a replacement reply, or nil to drop a publication). Leaves the batch empty.
  mutating func end(committed: Bool, refusing: (Output) -> Output?) -> Ending {
    defer {
      before = [:]
      changes = [:]
      outputs = []
    }
    guard !committed else { return Ending(outputs: outputs.map(\.output), rollback: [:]) }
    var ending = Ending(outputs: [], rollback: [:])
    for screen in changes.keys {
      if let value = before[screen] { ending.rollback[screen] = value }
    }
    for (screen, output) in outputs {
      if let screen, changes[screen] != nil {
        if let replacement = refusing(output) { ending.outputs.append(replacement) }
      } else {
        ending.outputs.append(output)
      }
    }
    return ending
  }
}
