import Logging
import TenFootProtocol
import TenFootStore
import ZeroMQ

/// The broker's group commit: the requests of one loop iteration are applied to the sessions
/// at once, what they changed is written to the store in **one** transaction (one fsync), and
/// only then are their replies and publications sent.
///
/// Nothing is acknowledged or published before it is durable. When the commit fails (disk
/// full, I/O error), the screens it would have changed are put back as they were, nothing
/// about them is published, and their requests are answered `STORE_UNAVAILABLE`; the broker
/// keeps serving from what is durable and commits again with the next batch.
///
/// The loop calls `open()` before draining the control socket, `next()` at the start of each
/// request, `willHandle`/`didHandle` around the domain, `hold` for every reply and
/// publication while open, and `commit` once the drain ends.
final class GroupCommit {
  /// A reply or a publication waiting for the commit.
  enum Output {
    case reply(peer: [UInt8], replyTo: UInt64, body: Tenfoot_V1_Envelope.OneOf_Body)
    case publish(topic: String, body: Tenfoot_V1_Envelope.OneOf_Body)
  }

  /// The store and the session ↔ record mapping.
  let persistence: SessionPersistence
  private let logger: Logger
  private var batch = CommitBatch<ScreenSession, Output>()
  /// The screen the request being served touches (nil: none, or not known yet).
  private var screen: String?
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

  /// Starts a batch: outputs are held from now until `commit`.
  func open() { isOpen = true }

  /// Starts the next request of the batch (no screen touched yet).
  func next() { screen = nil }

  /// Notes which screen `envelope` touches and its value before the batch touched it.
  func willHandle(_ envelope: Tenfoot_V1_Envelope, sessions: [String: ScreenSession]) {
    screen = Self.screen(touchedBy: envelope, sessions: sessions)
    if let screen { batch.touch(screen, current: sessions[screen]) }
  }

  /// Records the touched screen's new durable state if the request changed it.
  func didHandle(sessions: [String: ScreenSession]) {
    guard let screen, let session = sessions[screen] else { return }
    let record = SessionPersistence.record(of: session)
    if record != (batch.changes[screen] ?? persistence.store.record(for: screen)) {
      batch.change(record)
    }
  }

  /// Holds a reply or publication of the current request until the commit.
  func hold(_ output: Output) {
    batch.hold(output, screen: screen)
  }

  /// Writes the batch's changes in one transaction and returns what to send: everything after
  /// a successful commit; after a failed one, the changed screens rolled back in `core`, their
  /// replies turned into `STORE_UNAVAILABLE` and their publications dropped.
  func commit(_ core: inout BrokerState) -> [Output] {
    isOpen = false
    screen = nil
    var failure: SessionStoreError?
    do {
      try persistence.store.commit(batch.changes.values)
      if failing, !batch.changes.isEmpty {
        failing = false
        logger.notice(
          "session store writable again",
          metadata: ["store.path": "\(persistence.store.path)", "store.refused": "\(refused)"])
        refused = 0
      }
    } catch {
      failure = error
    }
    guard let failure else { return batch.end(committed: true) { $0 }.outputs }
    failing = true
    let changed = batch.changes.count
    let error = Tenfoot_V1_Error(
      .storeUnavailable,
      "the broker could not make this change durable (\(failure)); it was not applied")
    var refusedNow = 0
    let ending = batch.end(committed: false) { output in
      guard case .reply(let peer, let replyTo, _) = output else { return nil }
      refusedNow += 1
      return .reply(peer: peer, replyTo: replyTo, body: .error(error))
    }
    for (id, session) in ending.rollback { core.putBack(session, screen: id) }
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

  /// The screen session a request reads or changes, if any: the one it names, or for input
  /// without a screen id the only session (as `BrokerState` resolves it).
  static func screen(touchedBy envelope: Tenfoot_V1_Envelope, sessions: [String: ScreenSession])
    -> String?
  {
    switch envelope.body {
    case .registerScreen(let request): request.screenID
    case .input(let input) where input.screenID.isEmpty:
      sessions.count == 1 ? sessions.keys.first : nil
    case .input(let input): input.screenID
    case .patchLayout(let request): request.screenID
    case .focusRequest(let request): request.screenID
    case .snapshotRequest(let request): request.screenID
    case .debugRequest(let request): request.screenID
    case .heartbeat(let heartbeat) where !heartbeat.screenID.isEmpty: heartbeat.screenID
    default: nil
    }
  }
}
