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
/// full, I/O error), the domain rolls the batch back (`BrokerDomain.rollBack`: the screens it
/// would have changed as they were), nothing about them is published, and the requests that
/// touched them are answered `STORE_UNAVAILABLE`; the broker keeps serving from what is
/// durable and commits again with the next batch. The domain keeps only the touched screens,
/// so a batch costs the same with 1 or 1,000 sessions.
///
/// The loop calls `open` before draining the control socket, `next()` at the start of each
/// request, `handle` to let the domain serve it (press ids included, see `PressLedger`),
/// `hold` for every reply and publication while open, and `commit` once the drain ends.
final class GroupCommit {
  /// A reply or a publication waiting for the commit.
  enum Output {
    case reply(peer: [UInt8], replyTo: UInt64, body: Tenfoot_V1_Envelope.OneOf_Body)
    case publish(topic: String, body: Tenfoot_V1_Envelope.OneOf_Body)
    /// A snapshot publication encoded beforehand (a `ScreenState`).
    case publishSnapshot(topic: String, bytes: [UInt8])
  }

  /// The store and the record ↔ row mapping.
  let persistence: SessionPersistence
  /// Press ids applied at most once, when the store deduplicates them.
  let presses: PressLedger?
  private let logger: Logger
  private var batch = CommitBatch<Output>()
  /// The domain's token for the open batch.
  private var token: BrokerDomain.BatchToken?
  /// The screen the request being served touches (nil: none, or not known yet).
  private var screen: String?
  /// Whether outputs are being held (between `open` and `commit`).
  private(set) var isOpen = false
  /// Whether the last commit failed (to log the recovery once).
  private(set) var failing = false
  /// The error the last failed commit answered its requests with.
  private(set) var refusal: Tenfoot_V1_Error?
  /// Requests refused since the store started failing.
  private var refused = 0
  private var logLimiter = LogLimiter(limit: 1)
  /// The time the failure log's limit runs at.
  private let clock: BrokerClock

  /// Group commit over `persistence`'s store.
  init(persistence: SessionPersistence, clock: BrokerClock, logger: Logger) {
    self.persistence = persistence
    presses = PressLedger(persistence.store)
    self.clock = clock
    self.logger = logger
  }

  /// Starts a batch: `core`'s domain records what it changes, outputs are held until `commit`.
  func open(_ core: inout WireBroker) {
    isOpen = true
    token = core.domain.beginBatch()
  }

  /// Starts the next request of the batch (no screen touched yet).
  func next() { screen = nil }

  /// Notes that the outputs to come belong to `screen` (the broker's own work, such as a
  /// reaction deadline, whose screen the domain names).
  func willTouch(_ screen: String?) {
    self.screen = screen
  }

  /// Lets `core`'s domain handle one request of the batch, with its press id if the store
  /// deduplicates them; notes the screen the domain says it touched, and keeps the records to
  /// persist and the press id to record.
  func handle(
    _ envelope: Tenfoot_V1_Envelope, peer: [UInt8], principal: Principal = .local,
    owners: [String: String] = [:], core: inout WireBroker, at now: BrokerInstant
  ) -> WireBroker.Outcome {
    let outcome = core.handle(
      envelope, peer: peer, principal: principal, owners: owners,
      press: presses?.press(in: envelope), at: now)
    screen = core.domain.takeTouchedScreen()
    didHandle(records: outcome.records)
    presses?.record(outcome.press)
    return outcome
  }

  /// The domain asked to persist `records` (of the touched screen).
  func didHandle(records: [SessionRecord]) {
    for record in records { batch.change(SessionPersistence.row(record)) }
  }

  /// Holds a reply or publication of the current request until the commit.
  func hold(_ output: Output) {
    batch.hold(output, screen: screen)
  }

  /// Writes the batch's rows in one transaction and returns what to send: everything after a
  /// successful commit; after a failed one, the changed screens put back in `core`, their
  /// requests' replies turned into `STORE_UNAVAILABLE` and their publications dropped.
  func commit(_ core: inout WireBroker) -> [Output] {
    isOpen = false
    screen = nil
    let changed = batch.changes.count
    do {
      try persistence.store.commit(batch.changes.values)
    } catch {
      return refuse(&core, failure: error, changed: changed)
    }
    if let token { core.domain.endBatch(token) }
    token = nil
    if failing, changed > 0 {
      failing = false
      logger.notice(
        "session store writable again",
        metadata: ["store.path": "\(persistence.store.path)", "store.refused": "\(refused)"])
      refused = 0
    }
    return batch.end(committed: true) { $0 }
  }

  private func refuse(_ core: inout WireBroker, failure: SessionStoreError, changed: Int)
    -> [Output]
  {
    failing = true
    let error: Tenfoot_V1_Error
    if case .outcomeUnknown = failure {
      error = Tenfoot_V1_Error(
        .storeUnavailable,
        "the store did not answer (\(failure)); the broker takes the zone again, loading it, "
          + "before serving: a retry with the same press id is applied at most once")
    } else {
      error = Tenfoot_V1_Error(
        .storeUnavailable,
        "the broker could not make this change durable (\(failure)); it was not applied")
    }
    refusal = error
    var refusedNow = 0
    let undone = token.map { core.domain.rollBack($0) } ?? []
    token = nil
    assert(undone.count == changed, "the domain undid other screens than the batch changed")
    let ending = batch.end(committed: false) { output in
      guard case .reply(let peer, let replyTo, _) = output else { return nil }
      refusedNow += 1
      return .reply(peer: peer, replyTo: replyTo, body: .error(error))
    }
    refused += refusedNow
    let decision = logLimiter.allow("store", at: clock.now)
    if decision.log {
      logger.error(
        "session store write failed: changes not applied, requests refused",
        metadata: [
          "store.path": "\(persistence.store.path)", "store.code": "\(failure.sqliteCode ?? -1)",
          "error": "\(failure)", "store.screens": "\(changed)", "store.refused": "\(refusedNow)",
          "log.suppressed": "\(decision.suppressed)",
        ])
    }
    return ending
  }
}
