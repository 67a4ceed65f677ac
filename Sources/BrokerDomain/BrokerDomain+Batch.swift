/// Batches: the runtime makes the changes of several requests durable at once (group commit)
/// and may fail to. The domain records what a batch changed and undoes it by the batch's token.
///
/// The contract: between `beginBatch()` and `endBatch(_:)` or `rollBack(_:)`, every request
/// handled (and every hold released by its deadline) notes the screen it touches, and the
/// first touch keeps that screen's session and durable record as they were. `rollBack(_:)`
/// puts back every screen whose record the batch asked to persist, and returns them: the
/// runtime answers every reply of theirs produced in the batch `STORE_UNAVAILABLE` and drops
/// their publications. A session put back holds no request the batch answered: an input
/// released from a hold in the batch (its requester told the change failed) is not held again,
/// so it is never applied later. Screens only read (a snapshot, a heartbeat) keep what the
/// batch did to them: nothing of it was durable.
extension BrokerDomain {
  /// Names one batch; only the open batch's token ends it.
  public struct BatchToken: Sendable, Hashable {
    let value: UInt64
  }

  /// What the open batch touched and changed.
  struct Batch: Sendable, Equatable {
    /// The open batch's token.
    var token: BatchToken
    /// Each touched screen as it was before its first touch in the batch.
    var before: [String: Backup] = [:]
    /// The screen the last request handled touched (nil: none), until the runtime takes it.
    var touched: String?
  }

  /// A touched screen's session and durable record before the batch (nil: none).
  struct Backup: Sendable, Equatable {
    var session: ScreenSession?
    var record: SessionRecord?
    /// Whether the batch asked to persist the screen's record (a rollback puts it back).
    var changed = false
  }

  /// Starts recording a batch; end it with `endBatch` once its records are durable, or undo it
  /// with `rollBack` if they could not be made durable.
  public mutating func beginBatch() -> BatchToken {
    precondition(batch == nil, "a batch is open already: end it or roll it back first")
    lastBatch &+= 1
    let token = BatchToken(value: lastBatch)
    batch = Batch(token: token)
    return token
  }

  /// Ends the batch `token`: everything it changed is durable and stays.
  public mutating func endBatch(_ token: BatchToken) {
    precondition(batch?.token == token, "ending a batch that is not the open one")
    batch = nil
  }

  /// Undoes the batch `token`: the screens whose records it asked to persist are put back as
  /// they were before it (sessions, records and holds), minus the held inputs it answered.
  /// Returns those screens, sorted.
  public mutating func rollBack(_ token: BatchToken) -> [String] {
    precondition(batch?.token == token, "rolling back a batch that is not the open one")
    guard let ended = batch else { return [] }
    batch = nil
    var undone: [String] = []
    for (screen, backup) in ended.before where backup.changed {
      var session = backup.session
      if let hold = session?.hold {
        // Tokens only leave a hold by being released: those not waiting now were answered.
        let waiting = sessions[screen]?.hold.map { [$0.token] + $0.queued.map(\.token) } ?? []
        session?.hold?.queued = hold.queued.filter { waiting.contains($0.token) }
      }
      sessions[screen] = session
      records[screen] = backup.record
      if session?.hold != nil { holding.insert(screen) } else { holding.remove(screen) }
      undone.append(screen)
    }
    return undone.sorted()
  }

  /// The screen the last request handled in the open batch touched (nil: none, or no batch),
  /// once: the runtime tags that request's replies and publications with it.
  public mutating func takeTouchedScreen() -> String? {
    guard batch?.touched != nil else { return nil }
    defer { batch?.touched = nil }
    return batch?.touched
  }

  /// Notes that the request about to be handled touches `screen` (for `takeTouchedScreen`),
  /// keeping its value before the batch. Free without a batch.
  mutating func willHandle(touching screen: String?) {
    guard batch != nil else { return }
    batch?.touched = screen
    touch(screen)
  }

  /// Notes that the work to come touches `screen`, keeping its value before the batch (first
  /// touch only). Free without a batch.
  mutating func touch(_ screen: String?) {
    guard let screen, batch != nil, batch?.before.index(forKey: screen) == nil else { return }
    batch?.before[screen] = Backup(session: sessions[screen], record: records[screen])
  }

  /// Notes that the open batch asked to persist `screen`'s record.
  mutating func noteChanged(_ screen: String) {
    guard batch != nil else { return }
    if let index = batch?.before.index(forKey: screen) {
      batch?.before.values[index].changed = true
    } else {
      assertionFailure("screen \(screen) changed without being touched first")
    }
  }
}
