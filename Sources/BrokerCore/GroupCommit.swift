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
/// **A store whose commit is a round trip** (a zone's PostgreSQL store, `AsynchronousSessionStore`)
/// is committed off the loop, pipelined (`GroupCommit+Pipeline`): the batch is sent and sealed,
/// the loop goes on serving (heartbeats, expiry, the control socket), and the store's answer
/// comes back as a loop event (`LoopMailbox`, through the loop's waker). Requests that arrive
/// meanwhile are applied by the domain on top of the batch in flight and gather in the next
/// batch, which is sent when the answer comes. Outputs that depend on a change not yet durable
/// (those of a screen changed by the batch in flight or the one gathering) wait for their own
/// batch's commit; the rest (a `Hello`, a snapshot of another screen, a refusal) go out at the
/// end of the drain, each peer's replies kept in order. A failed commit rolls back its batch
/// and the one gathered on it (the domain, newest first), and answers `STORE_UNAVAILABLE` every
/// request of either that touched a screen put back. Press ids of the batch in flight count as
/// applied (a retry is answered as a repeat, in the next batch, so only after the first is
/// durable, and refused with it). After an unanswered commit the store refuses every later
/// commit in its term (`PostgresSessionStore`). The batch gathering behind a commit is bounded
/// (`backlogLimit`, in requests and bytes): past it a request is answered `RATE_LIMITED`
/// unread. The embedded SQLite store commits on the loop, as before: no thread hop on its path.
///
/// The loop calls `open` before draining the control socket, `next()` at the start of each
/// request, `handle` to let the domain serve it (press ids included, see `PressLedger`),
/// `hold` for every reply and publication while open, `commit` once the drain ends, and
/// `answered` when woken.
final class GroupCommit {
  /// A reply or a publication waiting for the commit.
  enum Output {
    /// A reply (a press's acknowledgement written when sent, see `OutgoingReply`).
    case reply(peer: [UInt8], replyTo: UInt64, body: OutgoingReply)
    case publish(topic: String, body: Tenfoot_V1_Envelope.OneOf_Body)
    /// A step's change, written as its delta when sent (`StateChange.writeDelta`).
    case publishChange(topic: String, change: StateChange)
    /// A snapshot publication encoded beforehand (a `ScreenState`).
    case publishSnapshot(topic: String, bytes: [UInt8])
  }

  /// The store and the record ↔ row mapping.
  let persistence: SessionPersistence
  /// Press ids applied at most once, when the store deduplicates them.
  let presses: PressLedger?
  let logger: Logger
  /// The batch being gathered (and, while a commit is in flight, every drain's after it).
  var batch = CommitBatch<Output>()
  /// The domain's token for the gathering batch.
  var token: BrokerDomain.BatchToken?
  /// The store, when its commit is a round trip made off the loop (with `mailbox`).
  let asynchronous: (any AsynchronousSessionStore)?
  /// Where the store's answer comes back to the loop.
  let mailbox: LoopMailbox<Result<Void, SessionStoreError>>?
  /// The batch whose commit is in flight, and the domain's token for it.
  var inFlight: (batch: CommitBatch<Output>, token: BrokerDomain.BatchToken)?
  /// Requests gathered behind the commit in flight, and their bytes.
  var backlog = (messages: 0, bytes: 0)
  /// The most requests and bytes that may gather behind a commit in flight.
  let backlogLimit: (messages: Int, bytes: Int)
  /// The screen the request being served touches (nil: none, or not known yet).
  private var screen: String?
  /// Whether outputs are being held (between `open` and `commit`).
  private(set) var isOpen = false
  /// Whether the last commit failed (to log the recovery once).
  var failing = false
  /// The error the last failed commit answered its requests with.
  var refusal: Tenfoot_V1_Error?
  /// Requests refused since the store started failing.
  var refused = 0
  var logLimiter = LogLimiter(limit: 1)
  /// The time the failure log's limit runs at.
  let clock: BrokerClock

  /// Group commit over `persistence`'s store. With `waker` (the loop's), a store whose commit
  /// is a round trip is committed off the loop and its answer wakes the loop; without, every
  /// store commits on the caller's thread.
  init(
    persistence: SessionPersistence, clock: BrokerClock, logger: Logger, waker: Waker? = nil,
    backlogLimit: (messages: Int, bytes: Int) = (10_000, 16 * 1024 * 1024)
  ) {
    self.persistence = persistence
    presses = PressLedger(persistence.store)
    let asynchronous = waker == nil ? nil : persistence.store as? any AsynchronousSessionStore
    self.asynchronous = asynchronous
    mailbox = asynchronous == nil ? nil : waker.map(LoopMailbox.init(waker:))
    self.backlogLimit = backlogLimit
    self.clock = clock
    self.logger = logger
  }

  /// Starts a drain: `core`'s domain records what it changes (in the batch gathering, opened
  /// if none is), outputs are held until `commit`.
  func open(_ core: inout WireBroker) {
    isOpen = true
    if token == nil { token = core.domain.beginBatch() }
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
    _ envelope: Tenfoot_V1_Envelope, body: Tenfoot_V1_Envelope.OneOf_Body?? = nil,
    peer: [UInt8], principal: Principal = .local, owners: [String: String] = [:],
    core: inout WireBroker, at now: BrokerInstant
  ) -> WireBroker.Outcome {
    // `body`: the envelope's, when the caller read it already.
    let outcome = core.handle(
      envelope, body: body ?? envelope.body, peer: peer, principal: principal, owners: owners,
      press: presses?.press(in: envelope), at: now)
    return handled(outcome, core: &core)
  }

  /// Lets `core`'s domain handle a key input read straight from its frame, as above.
  func handle(
    _ input: KeyInputFrame, peer: [UInt8], principal: Principal, owners: [String: String],
    core: inout WireBroker, at now: BrokerInstant
  ) -> WireBroker.Outcome {
    let outcome = core.handle(
      input, peer: peer, principal: principal, owners: owners,
      press: presses?.press(id: input.pressID), at: now)
    return handled(outcome, core: &core)
  }

  /// Notes what the domain did for the request that produced `outcome`: the screen it touched,
  /// the records to persist, the press id to record.
  private func handled(_ outcome: WireBroker.Outcome, core: inout WireBroker)
    -> WireBroker.Outcome
  {
    screen = core.domain.takeTouchedScreen()
    didHandle(records: outcome.records)
    if let press = outcome.press {
      presses?.record(press)
      batch.record(press: press, screen: screen)
    }
    return outcome
  }

  /// The domain asked to persist `records` (of the touched screen).
  func didHandle(records: [SessionRecord]) {
    for record in records { batch.change(SessionPersistence.row(record)) }
  }

  /// Holds a reply or publication of the current request until the commit.
  func hold(_ output: Output) {
    if case .reply(let peer, _, _) = output {
      batch.hold(output, screen: screen, peer: peer)
    } else {
      batch.hold(output, screen: screen)
    }
  }

  /// Ends the drain and returns what to send now. On the loop's thread: writes the batch's
  /// rows in one transaction and returns everything after a successful commit; after a failed
  /// one, the changed screens put back in `core`, their requests' replies turned into
  /// `STORE_UNAVAILABLE` and their publications dropped. Off the loop: sends the batch (or,
  /// with a commit in flight, keeps gathering) and returns the outputs that need no commit.
  func commit(_ core: inout WireBroker) -> [Output] {
    isOpen = false
    screen = nil
    guard asynchronous != nil else { return commitHere(&core) }
    return inFlight == nil ? send(&core) : release(&core)
  }

  /// Commits the gathered batch on this thread (the loop's).
  private func commitHere(_ core: inout WireBroker) -> [Output] {
    guard let token else { return [] }
    self.token = nil
    do {
      try persistence.store.commit(batch.changes.values)
    } catch {
      let (error, undone) = rollBack(&core, token, failure: error)
      return refuse(&batch, undone: undone, with: error)
    }
    committed(&core, token, changed: batch.changes.count)
    return batch.end(refusing: []) { $0 }
  }

  /// Ends the committed batch `token` in the domain; logs the store's recovery.
  func committed(_ core: inout WireBroker, _ token: BrokerDomain.BatchToken, changed: Int) {
    core.domain.endBatch(token)
    guard failing, changed > 0 else { return }
    failing = false
    logger.notice(
      "session store writable again",
      metadata: ["store.path": "\(persistence.store.path)", "store.refused": "\(refused)"])
    refused = 0
  }

  /// Rolls back the batch `token` (and a batch gathered on it) after `failure`; returns the
  /// error their requests are answered with and the screens put back.
  func rollBack(
    _ core: inout WireBroker, _ token: BrokerDomain.BatchToken, failure: SessionStoreError
  ) -> (error: Tenfoot_V1_Error, undone: Set<String>) {
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
    let undone = Set(core.domain.rollBack(token))
    let decision = logLimiter.allow("store", at: clock.now)
    if decision.log {
      logger.error(
        "session store write failed: changes not applied, requests refused",
        metadata: [
          "store.path": "\(persistence.store.path)", "store.code": "\(failure.sqliteCode ?? -1)",
          "error": "\(failure)", "store.screens": "\(undone.count)",
          "log.suppressed": "\(decision.suppressed)",
        ])
    }
    return (error, undone)
  }

  /// Ends `batch` after a failed commit: the replies of the `undone` screens become `error`,
  /// their publications are dropped, the rest goes out.
  func refuse(
    _ batch: inout CommitBatch<Output>, undone: Set<String>, with error: Tenfoot_V1_Error
  ) -> [Output] {
    batch.end(refusing: undone) { output in
      guard case .reply(let peer, let replyTo, _) = output else { return nil }
      refused += 1
      return .reply(peer: peer, replyTo: replyTo, body: .body(.error(error)))
    }
  }
}
