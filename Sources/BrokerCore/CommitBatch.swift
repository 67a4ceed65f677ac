import TenFootStore

/// Group commit's bookkeeping for one loop iteration: the requests of the iteration are
/// applied at once, their replies and publications held back, and everything they changed is
/// written in one transaction; only then do the outputs go out.
///
/// Pure data: it knows neither sockets, nor the store, nor the domain (which rolls its own
/// sessions back, `BrokerDomain.rollBack`). `Output` is whatever is held (a reply or a
/// publication). Every output is tagged with the screen its request touched, so that when the
/// commit fails the outputs of the screens it would have changed can be refused (replies) or
/// dropped (publications), while those of other screens go out as they are.
struct CommitBatch<Output> {
  /// The records to write, by screen: each screen's latest value in this batch.
  private(set) var changes: [String: SessionRow] = [:]
  /// Held outputs in order, each with the screen it depends on (nil: none).
  private var outputs: [(screen: String?, output: Output)] = []

  /// Whether nothing is held.
  var isEmpty: Bool { outputs.isEmpty && changes.isEmpty }

  /// Records that the batch changes `row.screenID`'s durable record to `record`.
  mutating func change(_ row: SessionRow) {
    changes[row.screenID] = row
  }

  /// Holds `output` until the batch ends.
  mutating func hold(_ output: Output, screen: String?) {
    outputs.append((screen, output))
  }

  /// Ends the batch and returns what to send, in the order it was produced: after a
  /// successful commit (`committed`) every output; after a failed one the outputs of the
  /// changed screens pass through `refusing` (a replacement reply, or nil to drop a
  /// publication). Leaves the batch empty.
  mutating func end(committed: Bool, refusing: (Output) -> Output?) -> [Output] {
    defer {
      changes = [:]
      outputs = []
    }
    guard !committed else { return outputs.map(\.output) }
    var sent: [Output] = []
    for (screen, output) in outputs {
      if let screen, changes[screen] != nil {
        if let replacement = refusing(output) { sent.append(replacement) }
      } else {
        sent.append(output)
      }
    }
    return sent
  }
}
