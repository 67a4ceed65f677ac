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
///
/// Pipelining (a store whose commit is a round trip, a zone's): `seal(_:)` turns the open batch
/// into the one being committed, and a new batch may open on top of it while the commit is in
/// flight. At most one batch is sealed. The sealed batch ends first (`endBatch`, then the open
/// one may be sealed in turn); rolling it back rolls back the open batch too, newest first, as
/// the open batch may have built on what the sealed one changed. `settle()` forgets the open
/// batch's screens that it touched without asking to persist them, so their outputs may go out
/// before the batch ends (a rollback would put back only changed screens anyway, and a later
/// change takes a fresh copy). A screen expired while its batch was open or sealed is not
/// brought back by a rollback (its durable record is).
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

  /// Ends the batch `token`: everything it changed is durable and stays. With a sealed batch,
  /// only that one may end.
  public mutating func endBatch(_ token: BatchToken) {
    if let sealed {
      precondition(sealed.token == token, "ending a batch that is not the sealed one")
      self.sealed = nil
      return
    }
    precondition(batch?.token == token, "ending a batch that is not the open one")
    batch = nil
  }

  /// Seals the open batch `token`: its commit is in flight, and a new batch may open on top of
  /// it. At most one batch is sealed.
  public mutating func seal(_ token: BatchToken) {
    precondition(sealed == nil, "a batch is sealed already: end it or roll it back first")
    precondition(batch?.token == token, "sealing a batch that is not the open one")
    sealed = batch
    batch = nil
  }

  /// Forgets the open batch's screens that it touched without asking to persist them: their
  /// outputs so far may go out now (see the extension's note).
  public mutating func settle() {
    guard let before = batch?.before else { return }
    batch?.before = before.filter { $0.value.changed }
  }

  /// Undoes the batch `token` (the sealed one if there is one, else the open one) and, for the
  /// sealed one, the open batch built on it: the screens whose records they asked to persist
  /// are put back as they were before them (sessions, records and holds), minus the held
  /// inputs they answered. Returns those screens, sorted.
  public mutating func rollBack(_ token: BatchToken) -> [String] {
    var ended: [Batch] = []
    if let sealed {
      precondition(sealed.token == token, "rolling back a batch that is not the sealed one")
      ended = [batch, sealed].compactMap { $0 }
      self.sealed = nil
    } else {
      precondition(batch?.token == token, "rolling back a batch that is not the open one")
      ended = batch.map { [$0] } ?? []
    }
    batch = nil
    // Tokens only leave a hold by being released: those not waiting now were answered.
    var waiting: [String: Set<UInt64>] = [:]
    for screen in Set(ended.flatMap { $0.before.filter(\.value.changed).keys }) {
      waiting[screen] = Set(
        sessions[screen]?.hold.map { [$0.token] + $0.queued.map(\.token) } ?? [])
    }
    var undone: Set<String> = []
    for batch in ended {
      for (screen, backup) in batch.before where backup.changed {
        restore(screen, backup, waiting: waiting[screen] ?? [])
        undone.insert(screen)
      }
    }
    return undone.sorted()
  }

  /// Puts `screen` back as `backup` holds it, keeping in its hold only the `waiting` tokens.
  private mutating func restore(_ screen: String, _ backup: Backup, waiting: Set<UInt64>) {
    records[screen] = backup.record
    // Expired since: not brought back (its screen went silent).
    if backup.session != nil, sessions[screen] == nil, gone.contains(screen) { return }
    var session = backup.session
    if let hold = session?.hold {
      session?.hold?.queued = hold.queued.filter { waiting.contains($0.token) }
    }
    sessions[screen] = session
    if session?.hold != nil { holding.insert(screen) } else { holding.remove(screen) }
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
