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
///
/// While a commit is in flight (a zone's store), `release` lets the outputs that depend on no
/// change waiting to be durable go out at once, keeping each peer's replies in order.
struct CommitBatch<Output> {
  /// The records to write, by screen: each screen's latest value in this batch.
  private(set) var changes: [String: SessionRow] = [:]
  /// Held outputs in order, each with the screen it depends on (nil: none) and, for a reply,
  /// its peer.
  private var outputs: [(screen: String?, peer: [UInt8]?, output: Output)] = []
  /// The press ids the batch recorded, each with the screen its request touched.
  private(set) var presses: [(id: String, screen: String?)] = []

  /// Whether nothing is held.
  var isEmpty: Bool { outputs.isEmpty && changes.isEmpty && presses.isEmpty }

  /// The screens whose outputs wait for the commit: those changed, and those of press ids it
  /// records (an acknowledged press is one whose id is durable).
  var waitingScreens: Set<String> {
    Set(changes.keys).union(presses.compactMap(\.screen))
  }

  /// The peers of the replies held.
  var heldPeers: Set<[UInt8]> { Set(outputs.compactMap(\.peer)) }

  /// Records that the batch changes `row.screenID`'s durable record to `record`.
  mutating func change(_ row: SessionRow) {
    changes[row.screenID] = row
  }

  /// Holds `output` (a reply to `peer`, or a publication if nil) until the batch ends.
  mutating func hold(_ output: Output, screen: String?, peer: [UInt8]? = nil) {
    outputs.append((screen, peer, output))
  }

  /// Notes that the batch recorded press id `id` for a request that touched `screen`.
  mutating func record(press id: String, screen: String?) {
    presses.append((id, screen))
  }

  /// Takes the outputs that may go out now, in order: those whose screen is not in `waiting`
  /// (screens with a change not yet durable), unless a reply to the same peer is held before
  /// them, in this batch or (`heldPeers`) an earlier one. Keeps the rest.
  mutating func release(waiting: Set<String>, heldPeers: Set<[UInt8]>) -> [Output] {
    var held = heldPeers
    var sent: [Output] = []
    outputs.removeAll { entry in
      let blocked = entry.screen.map(waiting.contains) ?? false
      if blocked || entry.peer.map(held.contains) == true {
        if let peer = entry.peer { held.insert(peer) }
        return false
      }
      sent.append(entry.output)
      return true
    }
    return sent
  }

  /// Ends the batch and returns what to send, in the order it was produced: after a
  /// successful commit (`committed`) every output; after a failed one the outputs of the
  /// changed screens pass through `refusing` (a replacement reply, or nil to drop a
  /// publication). Leaves the batch empty.
  mutating func end(committed: Bool, refusing: (Output) -> Output?) -> [Output] {
    committed ? end(refusing: [], refusing) : end(refusing: Set(changes.keys), refusing)
  }

  /// Ends the batch and returns what to send, in order: the outputs of `screens` (those a
  /// failed commit put back) pass through `refusing`, the rest go out as they are. Leaves the
  /// batch empty.
  mutating func end(refusing screens: Set<String>, _ refusing: (Output) -> Output?) -> [Output] {
    defer {
      changes = [:]
      outputs = []
      presses = []
    }
    guard !screens.isEmpty else { return outputs.map(\.output) }
    var sent: [Output] = []
    for (screen, _, output) in outputs {
      if let screen, screens.contains(screen) {
        if let replacement = refusing(output) { sent.append(replacement) }
      } else {
        sent.append(output)
      }
    }
    return sent
  }
}
