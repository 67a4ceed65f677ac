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
/// A zone's store (`AsynchronousAllowListSource`) is written off the loop: the write goes out,
/// the loop goes on serving, and the answer comes back as a loop event (`LoopMailbox`); only
/// then does the list change and the writer hear it is durable.
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
  private(set) var principals: [String: Principal]
  /// Screen id → the hex key of the screen key that owns it.
  private(set) var owners: [String: String]
  /// Where a zone's write answers arrive (nil: the store writes on the loop).
  private let mailbox: LoopMailbox<(write: Int, answer: Result<AllowList, StoreError>)>?
  /// What to do once each write in flight is answered, by number.
  private var writes: [Int: (Result<Void, StoreError>) -> Void] = [:]
  private var nextWrite = 0

  /// The keeper of `store`; a zone's store's answers wake the loop through `waker`.
  init(store: any AllowListSource, clock: BrokerClock, logger: Logger, waker: Waker?) {
    self.store = store
    self.clock = clock
    self.logger = logger
    mailbox =
      store is any AsynchronousAllowListSource ? waker.map { LoopMailbox(waker: $0) } : nil
    watcher = store.watchedFile.flatMap { FileChangeWatcher(path: $0) }
    owners = store.list.screenOwners
    principals = Self.principals(of: store.list)
  }

  /// The list as last loaded.
  var list: AllowList { store.list }

  /// Whether the loop must look at the list every 100 ms: without inotify (or with the
  /// allow-list in a zone's store) nothing else would notice a revoke.
  var needsReloadTimer: Bool { watcher == nil }

  /// Reloads now if the watcher saw the file change.
  func watcherFired() {
    if watcher?.drain() == true { reloadIfDue(force: true) }
  }

  /// Reloads if the file changed: always when `force`, else at most every 100 ms.
  func reloadIfDue(force: Bool) {
    let now = clock.now
    guard force || now >= nextReloadCheck else { return }
    nextReloadCheck = now + .milliseconds(100)
    do {
      let before = store.list  // A copy-on-write value: copying it here costs nothing.
      if try store.reloadIfChanged() { listChanged(from: before) }
    } catch {
      logLimiter.log(
        .error, "allow-list unreadable; keeping the last good one",
        metadata: ["store.path": "\(store.path)", "error": "\(error)"], to: logger, at: now)
    }
  }

  /// Notes a peer ZAP admitted to the state socket (a revoke of its key must cut it).
  func admittedToState(_ access: PeerAccess) {
    revocation.subscribed(access)
  }

  /// The ids revoked since the last call that had been admitted to the state socket.
  func takeRevokedSubscribers() -> Set<String> {
    revocation.takeCut()  // Every publish asks: cheap when there is nothing to cut.
  }

  /// Changes the list and writes it; `done` runs on the loop once the write is durable (the
  /// list then holds the change) or failed. A file is written at once (`done` runs before this
  /// returns); a zone's store off the loop. What the write found is treated as any reload: a
  /// revoke another process wrote just before still cuts its peer.
  func modify(
    _ change: @escaping (inout AllowList) -> Void,
    then done: @escaping (Result<Void, StoreError>) -> Void
  ) {
    guard let mailbox, let store = store as? any AsynchronousAllowListSource else {
      let before = store.list
      do {
        try store.modify(change)
      } catch {
        return done(.failure(error))
      }
      listChanged(from: before)
      return done(.success(()))
    }
    let write = nextWrite
    nextWrite += 1
    let started = store.startWrite(change) { answer in
      mailbox.deliver((write, answer))
    }
    if let started { return done(started) }
    writes[write] = done
  }

  /// Ends the writes whose answers arrived (on the loop, after a wake-up).
  func writesAnswered() {
    guard let mailbox, let store = store as? any AsynchronousAllowListSource else { return }
    while let (write, answer) = mailbox.take() {
      let done = writes.removeValue(forKey: write)
      let before = store.list
      do {
        try store.finishWrite(answer)
      } catch {
        done?(.failure(error))
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
    owners = store.list.screenOwners
    principals = Self.principals(of: store.list)
    if !removed.isEmpty || before.entries.count != store.list.entries.count {
      logger.info(
        "allow-list reloaded",
        metadata: [
          "peers": "\(store.list.entries.count)", "peers.removed": "\(removed.sorted())",
        ])
    }
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
