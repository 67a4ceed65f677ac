import TenFootStore

/// Group commit's bookkeeping for one loop iteration: the requests of the iteration are
/// applied at once, their replies and publications held back, and the rows they changed are
/// written in one transaction; only then do the outputs go out.
///
/// Pure data: it knows neither sockets nor the store. `State` is what a rollback puts back
/// (the broker's whole domain value as it was before the batch), `Output` whatever is held (a
/// reply or a publication). Outputs of requests that reached the domain are marked: when the
/// commit fails the state goes back to before the batch, so every one of them is refused
/// (replies) or dropped (publications); outputs of requests refused before the domain (bad
/// frames, flood control) go out as they are.
struct CommitBatch<State, Output> {
  /// The state before the batch's first request.
  private(set) var before: State?
  /// The rows to write, by screen: each screen's latest row in this batch.
  private(set) var changes: [String: SessionRow] = [:]
  /// Held outputs in order, each marked if its request reached the domain.
  private var outputs: [(handled: Bool, output: Output)] = []

  /// Whether nothing is held.
  var isEmpty: Bool { outputs.isEmpty && changes.isEmpty && before == nil }

  /// Starts a batch from `state`.
  mutating func begin(_ state: State) { before = state }

  /// Records that the batch changes `row.screenID`'s durable row to `row`.
  mutating func change(_ row: SessionRow) { changes[row.screenID] = row }

  /// Holds `output` until the batch ends; `handled`: its request reached the domain.
  mutating func hold(_ output: Output, handled: Bool) { outputs.append((handled, output)) }

  /// The outcome of ending a batch.
  struct Ending {
    /// What to send, in the order it was produced.
    var outputs: [Output]
    /// The state to put back (after a failed commit).
    var rollback: State?
  }

  /// Ends the batch: after a successful commit (`committed`) every output goes out; after a
  /// failed one the state before the batch comes back, and the handled requests' outputs are
  /// passed through `refusing` (a replacement reply, or nil to drop a publication). Leaves
  /// the batch empty.
  mutating func end(committed: Bool, refusing: (Output) -> Output?) -> Ending {
    defer {
      before = nil
      changes = [:]
      outputs = []
    }
    guard !committed else { return Ending(outputs: outputs.map(\.output), rollback: nil) }
    var sent: [Output] = []
    for (handled, output) in outputs {
      if !handled {
        sent.append(output)
      } else if let replacement = refusing(output) {
        sent.append(replacement)
      }
    }
    return Ending(outputs: sent, rollback: before)
  }
}
