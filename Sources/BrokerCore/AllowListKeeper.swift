import BrokerDomain
import Foundation
import Logging
import TenFootSecurity
import ZeroMQ

/// The broker's view of its allow-list, kept current on the loop thread: reloads when the
/// file changes (inotify, or a check at most every 100 ms), writes changes (a pairing's new
/// key, a screen's first claim), and after every change rebuilds the lookups the rules use
/// (peers by key, screens' owners) and runs the revoke diff, so a key that left the list is
/// cut off the state socket however it left.
///
/// Checks and writes run off the loop, the same way for a file and a zone's store
/// (`AllowListSource.startCheck`, `startWrite`: a file on threads of its own, a zone's store on
/// PostgreSQL's): what they read or wrote comes back as a loop event (`LoopMailbox`) and the
/// loop only applies it. Writes end in the order they started; only when one has ended does
/// the list change and its writer hear it is durable (or that it failed). One check is in
/// flight at a time, none starts while a write is in flight (a forced one follows the write),
/// and a check that overlapped a change the loop made itself (a write started or ended, a read
/// on the loop) is dropped and made again at once: it may have read the store before that
/// change, and applying it would undo it until the next check. A check follows every write at
/// once: what another process wrote between the write and its answer (a revoke) is applied
/// then.
final class AllowListKeeper {
  private let store: any AllowListSource
  private let logger: Logger
  private let clock: BrokerClock
  /// Sees the allow-list file replaced at once (nil without inotify: the timer still checks).
  let watcher: FileChangeWatcher?
  /// Who ZAP admitted to the state socket, and which of them a revoke must cut off.
  private(set) var revocation = Revocation()
  private var nextReloadCheck = BrokerInstant.origin
  private var logLimiter = LogLimiter()
  /// The allow-list's peers by whole key in hex, as the rules see them: rebuilt when the list
  /// changes, so a message costs one dictionary lookup, not a scan decoding every key.
  private(set) var principals: [String: Principal] {
    didSet { lastLookup = nil }
  }
  /// The last key `principal(forKey:)` looked up and what it found: a connection's messages
  /// come in runs, and a lookup hashes a 64-character key (with `settle`, 2,243 instructions a
  /// message before, 385 for this lookup now; callgrind, the CURVE broker). Forgotten whenever
  /// `principals` is rebuilt.
  private var lastLookup: (key: String, principal: Principal?)?
  /// Screen id → the hex key of the screen key that owns it: the list's, and the claims
  /// being written.
  private(set) var owners: [String: String]
  /// Screens' first claims being written: screen id → the claimant's hex key. They own the id
  /// at once, so another key's claim of it (or a key's claims past its limit) is refused while
  /// the write is in flight, as when the write was made on the loop.
  private var claims: [String: String] = [:]
  /// Where the writes' answers arrive, with the number each started as.
  private let mailbox: LoopMailbox<(write: Int, answer: Result<AllowListWrite, StoreError>)>
  /// What to do once each write in flight is answered, by number.
  private var writes: [Int: (Result<Void, StoreError>) -> Void] = [:]
  private var nextWrite = 0
  /// Where the checks' answers arrive, with the `generation` each started at.
  private let checks: LoopMailbox<(generation: Int, check: AllowListCheck)>
  /// Whether a check is in flight.
  private var checking = false
  /// Counts the changes the loop made to the list itself (writes started or ended, reads on
  /// the loop): a check that started at another count is dropped.
  private var generation = 0
  /// A check was dropped: the next one starts without waiting for the interval.
  private var recheck = false

  /// The keeper of `store`; the answers of its checks and writes wake the loop through `waker`.
  init(store: any AllowListSource, clock: BrokerClock, logger: Logger, waker: Waker) {
    self.store = store
    self.clock = clock
    self.logger = logger
    mailbox = LoopMailbox(waker: waker)
    checks = LoopMailbox(waker: waker)
    watcher = store.watchedFile.flatMap { FileChangeWatcher(path: $0) }
    owners = Self.owners(of: store.list, claims: [:])
    principals = Self.principals(of: store.list)
  }

  /// The principal of the allow-listed key `key` (its whole key in hex), nil if the list does
  /// not hold it: `principals[key]`, remembered for the next message with the same key.
  func principal(forKey key: String) -> Principal? {
    if let lastLookup, lastLookup.key == key { return lastLookup.principal }
    let principal = principals[key]
    lastLookup = (key, principal)
    return principal
  }

  /// The list as last loaded.
  var list: AllowList { store.list }

  /// Whether the loop must look at the list every 100 ms: without inotify (or with the
  /// allow-list in a zone's store) nothing else would notice a revoke.
  var needsReloadTimer: Bool { watcher == nil }

  /// Checks now if the watcher saw the file change.
  func watcherFired() {
    if watcher?.drain() == true { reloadIfDue(force: true) }
  }

  /// Starts a check off the loop: always when `force`, else at most every 100 ms; never while
  /// a check or a write is in flight (a forced one then follows the check or write in flight).
  func reloadIfDue(force: Bool) {
    let now = clock.now
    guard !checking, writes.isEmpty else {
      // The check or write in flight may predate what `force` reports: a check follows it.
      if force { recheck = true }
      return
    }
    guard force || recheck || now >= nextReloadCheck else { return }
    let started = generation
    let checks = checks
    guard store.startCheck(answered: { checks.deliver((started, $0)) }) else { return }
    nextReloadCheck = now + .milliseconds(100)
    checking = true
    recheck = false
  }

  /// Before a peer is judged (a control message, a ZAP request, opening pairing): a watched
  /// file that changed since it was read is read now, on the loop, so a revoke holds at once
  /// for whatever arrives after it. That costs a `stat` per call, and a read only when a
  /// message races a change the off-loop check has not applied yet. A store without a file
  /// (a zone's) is not asked on the loop: a check starts if one is due.
  func settle() {
    guard store.watchedFile != nil else { return reloadIfDue(force: true) }
    let before = store.list  // A copy-on-write value: copying it here costs nothing.
    do {
      if try store.reloadIfChanged() {
        generation += 1
        listChanged(from: before)
      }
    } catch {
      logUnreadable(error)
    }
  }

  /// Applies the checks whose answers arrived (on the loop, after a wake-up).
  private func checksAnswered() {
    while let (started, check) = checks.take() {
      checking = false
      guard started == generation else {
        recheck = true
        continue
      }
      let before = store.list
      do {
        if try store.finishCheck(check) { listChanged(from: before) }
      } catch {
        logUnreadable(error)
      }
    }
  }

  private func logUnreadable(_ error: StoreError) {
    logLimiter.log(
      .error, "allow-list unreadable; keeping the last good one",
      metadata: ["store.path": "\(store.path)", "error": "\(error)"], to: logger, at: clock.now)
  }

  /// Notes a peer ZAP admitted to the state socket (a revoke of its key must cut it).
  func admittedToState(_ access: PeerAccess) {
    revocation.subscribed(access)
  }

  /// The ids revoked since the last call that had been admitted to the state socket.
  func takeRevokedSubscribers() -> Set<String> {
    revocation.takeCut()  // Every publish asks: cheap when there is nothing to cut.
  }

  /// Changes the list and writes it off the loop; `done` runs on the loop once the write is
  /// durable (the list then holds the change) or failed. What the write found is treated as
  /// any reload: a revoke another process wrote just before still cuts its peer.
  func modify(
    _ change: @escaping @Sendable (inout AllowList) -> Void,
    then done: @escaping (Result<Void, StoreError>) -> Void
  ) {
    generation += 1
    let write = nextWrite
    nextWrite += 1
    let mailbox = mailbox
    let started = store.startWrite(change) { answer in
      mailbox.deliver((write, answer))
    }
    if let started { return done(started) }
    writes[write] = done
  }

  /// Writes `screen`'s first claim by the screen key `key`, which owns it from now on unless
  /// the write fails; `done` runs as for `modify`.
  func claim(
    _ screen: String, by key: String, then done: @escaping (Result<Void, StoreError>) -> Void
  ) {
    claims[screen] = key
    if owners[screen] == nil { owners[screen] = key }
    modify({ $0.bind(screen: screen, toKeyHex: key) }) { [unowned self] result in
      claims[screen] = nil
      owners = Self.owners(of: store.list, claims: claims)
      done(result)
    }
  }

  /// Ends the writes and applies the checks whose answers arrived (on the loop, after a
  /// wake-up): the writes first, so a check that overlapped one is dropped; then starts the
  /// check that follows a write.
  func answersArrived() {
    writesAnswered()
    checksAnswered()
    if recheck { reloadIfDue(force: false) }
  }

  /// Ends the writes whose answers arrived, in the order they started.
  private func writesAnswered() {
    while let (write, answer) = mailbox.take() {
      generation += 1
      recheck = true
      let done = writes.removeValue(forKey: write)
      let before = store.list
      do {
        try store.finishWrite(answer)
      } catch {
        done?(.failure(error))  // The writer logs it, with what it means for its request.
        continue
      }
      listChanged(from: before)
      done?(.success(()))
    }
  }

  /// The Z85 keys of the screen keys that show a pairing's PIN: the owner of `screen`, or
  /// every screen key.
  func screenKeys(for screen: String?) -> [String] {
    let screens = store.list.entries.filter { $0.role == .screen }
    guard let screen else { return screens.map(\.publicKey) }
    return screens.filter { $0.keyHex == owners[screen] }.map(\.publicKey)
  }

  /// Runs the revoke diff and rebuilds the lookups after the list changed.
  private func listChanged(from before: AllowList) {
    let removed = revocation.allowListChanged(
      before: Set(before.entries.map(\.keyHex)), after: Set(store.list.entries.map(\.keyHex)))
    owners = Self.owners(of: store.list, claims: claims)
    principals = Self.principals(of: store.list)
    if !removed.isEmpty || before.entries.count != store.list.entries.count {
      logger.info(
        "allow-list reloaded",
        metadata: [
          "peers": "\(store.list.entries.count)", "peers.removed": "\(removed.sorted())",
        ])
    }
  }

  /// `list`'s screen owners, and those of `claims` for ids the list does not give an owner.
  private static func owners(of list: AllowList, claims: [String: String]) -> [String: String] {
    list.screenOwners.merging(claims) { listed, _ in listed }
  }

  /// `list`'s peers by key (see `principals`).
  private static func principals(of list: AllowList) -> [String: Principal] {
    var principals: [String: Principal] = [:]
    for entry in list.entries {
      let role: Principal.Role =
        switch entry.role {
        case .screen: .screen
        case .remote: .remote
        case .app: .app
        }
      let key = entry.keyHex
      principals[key] = Principal(
        id: entry.id, key: key, role: role, screens: entry.screens.map(Set.init))
    }
    return principals
  }
}
