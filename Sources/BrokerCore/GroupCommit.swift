import BrokerDomain
import Logging
import TenFootProtocol
import TenFootStore
import ZeroMQ

/// The broker's group commit: the requests of one loop iteration are applied by the domain at
/// once, the records they ask to persist are written to the store in **one** transaction (one
/// fsync), and only then are their replies and publications sent.
///
/// Nothing is acknowledged or published before it is durable. When the commit fails (disk
/// full, I/O error), the domain goes back to its value before the batch, nothing of the batch
/// is published, and every request of it that reached the domain is answered
/// `STORE_UNAVAILABLE`; the broker keeps serving from what is durable and commits again with
/// the next batch.
///
/// The loop calls `open` before draining the control socket, `next()` at the start of each
/// request, `didHandle` with the records the domain asked to persist, `hold` for every reply
/// and publication while open, and `commit` once the drain ends.
final class GroupCommit {
  /// A reply or a publication waiting for the commit.
  enum Output {
    case reply(peer: [UInt8], replyTo: UInt64, body: Tenfoot_V1_Envelope.OneOf_Body)
    case publish(topic: String, body: Tenfoot_V1_Envelope.OneOf_Body)
  }

  /// The store and the record ↔ row mapping.
  let persistence: SessionPersistence
  private let logger: Logger
  private var batch = CommitBatch<WireBroker, Output>()
  /// Whether the request being served reached the domain.
  private var handled = false
  /// Whether outputs are being held (between `open` and `commit`).
  private(set) var isOpen = false
  /// Whether the last commit failed (to log the recovery once).
  private(set) var failing = false
  /// Requests refused since the store started failing.
  private var refused = 0
  private var logLimiter = LogLimiter(perSecond: 1)

  /// Group commit over `persistence`'s store.
  init(persistence: SessionPersistence, logger: Logger) {
    self.persistence = persistence
    self.logger = logger
  }

  /// Starts a batch from the broker's current value: outputs are held until `commit`.
  func open(_ core: WireBroker) {
    isOpen = true
    batch.begin(core)
  }

  /// Starts the next request of the batch.
  func next() { handled = false }

  /// The current request reached the domain, which asked to persist `records`.
  func didHandle(records: [SessionRecord]) {
    handled = true
    for record in records { batch.change(SessionPersistence.row(record)) }
  }

  /// Holds a reply or publication of the current request until the commit.
  func hold(_ output: Output) {
    batch.hold(output, handled: handled)
  }

  /// Writes the batch's rows in one transaction and returns what to send: everything after a
  /// successful commit; after a failed one, `core` back as it was before the batch, the
  /// handled requests' replies turned into `STORE_UNAVAILABLE` and their publications dropped.
  func commit(_ core: inout WireBroker) -> [Output] {
    isOpen = false
    handled = false
    let changed = batch.changes.count
    do {
      try persistence.store.commit(batch.changes.values)
    } catch {
      return refuse(&core, failure: error, changed: changed)
    }
    if failing, changed > 0 {
      failing = false
      logger.notice(
        "session store writable again",
        metadata: ["store.path": "\(persistence.store.path)", "store.refused": "\(refused)"])
      refused = 0
    }
    return batch.end(committed: true) { $0 }.outputs
  }

  private func refuse(_ core: inout WireBroker, failure: SessionStoreError, changed: Int)
    -> [Output]
  {
    failing = true
    let error = Tenfoot_V1_Error(
      .storeUnavailable,
      "the broker could not make this change durable (\(failure)); it was not applied")
    var refusedNow = 0
    let ending = batch.end(committed: false) { output in
      guard case .reply(let peer, let replyTo, _) = output else { return nil }
      refusedNow += 1
      return .reply(peer: peer, replyTo: replyTo, body: .error(error))
    }
    if let before = ending.rollback { core = before }
    refused += refusedNow
    let decision = logLimiter.allow("store", now: MonotonicClock.nanoseconds())
    if decision.log {
      logger.error(
        "session store write failed: changes not applied, requests refused",
        metadata: [
          "store.path": "\(persistence.store.path)", "store.code": "\(failure.sqliteCode ?? -1)",
          "error": "\(failure)", "store.screens": "\(changed)", "store.refused": "\(refusedNow)",
          "log.suppressed": "\(decision.suppressed)",
        ])
    }
    return ending.outputs
  }
}
