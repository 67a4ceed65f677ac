import BrokerCore
import Foundation
import Logging
import Synchronization
import TenFootCLI
import TenFootDiscovery
import TenFootPostgres
import TenFootStore
import ZeroMQ

/// A broker of a zone on a PostgreSQL store: stands by, connected, until it takes the zone's
/// lock; then binds and serves under a new term until it is fenced, loses its lock or is
/// stopped; then unbinds and stands by again.
struct ZoneServe {
  let url: PostgresURL
  let leadership: ZoneLeadership
  let base: BrokerConfiguration
  let logger: Logger
  /// Announces the active broker on the network (mDNS), or returns nil.
  let announce: (BrokerThread) -> BrokerAnnouncer?
  /// How often a standby tries the lock.
  static let pollMilliseconds = 50

  /// Stands by and serves until SIGINT or SIGTERM.
  func run() throws {
    let control = ZoneControl()
    SignalWatcher.onTerminate { control.terminate() }
    let context = try Context()
    // The store's connection, opened while standing by: a takeover then costs one query.
    let storeLink = PostgresLink(url: url, logger: logger)
    var unreachable = 0
    var migrated = false
    announceStandby()
    while !control.isTerminated {
      let term: Int64
      do {
        if !migrated {
          try leadership.migrate()
          migrated = true
        }
        guard let taken = try leadership.tryToBecomeActive() else {
          if unreachable > 0 { logReachable(after: unreachable) }
          unreachable = 0
          if !storeLink.isConnected { try storeLink.query("SELECT 1") }
          usleep(UInt32(Self.pollMilliseconds * 1000))
          continue
        }
        term = taken
      } catch {
        if unreachable % 20 == 0 {
          logger.error(
            "zone store unreachable: standing by, retrying",
            metadata: ["zone": "\(leadership.zone)", "error": "\(error)"])
        }
        unreachable += 1
        usleep(500_000)
        continue
      }
      if unreachable > 0 { logReachable(after: unreachable) }
      unreachable = 0
      serveActive(term: term, link: storeLink, context: context, control: control)
      leadership.resign()
      if !control.isTerminated { announceStandby() }
    }
  }

  private func logReachable(after attempts: Int) {
    logger.notice(
      "zone store reachable again",
      metadata: ["zone": "\(leadership.zone)", "retries": "\(attempts)"])
  }

  private func announceStandby() {
    logger.notice(
      "broker standing by",
      metadata: ["zone": "\(leadership.zone)", "broker": "\(leadership.name)"])
    print("tenfoot-broker standby zone=\(leadership.zone) name=\(leadership.name)")
    fflush(nil)
  }

  /// Serves as the zone's active broker under `term` until stepping down.
  private func serveActive(
    term: Int64, link: PostgresLink, context: Context, control: ZoneControl
  ) {
    let started = ContinuousClock.now
    var configuration = base
    let zone = leadership.zone
    let logger = logger
    configuration.sessionStore = {
      let store = try PostgresSessionStore(
        link: link, zone: zone, term: term, migrate: false, logger: logger)
      store.onFenced = { failure in control.fence("\(failure)") }
      // Its sessions in memory may be behind the store: take the zone again, loading it.
      store.onOutcomeUnknown = { failure in control.fence("\(failure)") }
      return store
    }
    // The allow-list and revocations live in the zone's store too, read and written (under
    // the term) over the same connection, on the broker's thread: loaded here, at takeover.
    configuration.security?.allowList = {
      let peers = try PostgresAllowListStore(link: link, zone: zone, term: term, logger: logger)
      peers.onFenced = { failure in control.fence("\(failure)") }
      return peers
    }
    let broker: BrokerThread
    do {
      broker = try BrokerThread(configuration: configuration, context: context, logger: logger)
    } catch {
      logger.error(
        "cannot serve after taking the zone: stepping down",
        metadata: ["zone": "\(zone)", "zone.term": "\(term)", "error": "\(error)"])
      usleep(500_000)
      return
    }
    control.serving(broker.stopper)
    let elapsed = (ContinuousClock.now - started) / .microseconds(1)
    logger.notice(
      "broker active: took the zone's lock",
      metadata: [
        "zone": "\(zone)", "zone.term": "\(term)", "broker": "\(leadership.name)",
        "zmq.control": "\(broker.controlEndpoints)", "activation.us": "\(Int(elapsed))",
      ])
    printReady(broker, term: term)
    // Only the active broker of a zone is announced: a standby has nothing bound.
    let announcer = announce(broker)
    let reason = keepActive(broker, control: control)
    announcer?.stop()
    broker.stop()
    control.serving(nil)
    if let reason {
      logger.warning(
        "broker stepped down: endpoints unbound",
        metadata: ["zone": "\(zone)", "zone.term": "\(term)", "reason": "\(reason)"])
    }
  }

  /// Renews the lease until the broker must stop; returns why it steps down (nil: asked to
  /// stop).
  private func keepActive(_ broker: BrokerThread, control: ZoneControl) -> String? {
    while true {
      if broker.wait(milliseconds: Int(leadership.renewInterval / .milliseconds(1))) {
        return control.isTerminated ? nil : control.fenceReason ?? "the broker loop ended"
      }
      if control.isTerminated { return nil }
      if let fenced = control.fenceReason { return fenced }
      do {
        try leadership.renew()
      } catch .fenced(_, let term, _) {
        return "a newer term than \(term) exists: another broker took over"
      } catch {
        return "lost the zone's lock: \(error)"
      }
    }
  }

  private func printReady(_ broker: BrokerThread, term: Int64) {
    let pairing =
      broker.pairingEndpoints.isEmpty
      ? "" : " pairing=\(broker.pairingEndpoints.joined(separator: ","))"
    print(
      "tenfoot-broker ready control=\(broker.controlEndpoints.joined(separator: ",")) state=\(broker.stateEndpoints.joined(separator: ",")) epoch=\(broker.epoch)\(pairing) zone=\(leadership.zone) term=\(term)"
    )
    fflush(nil)
  }
}

/// What the signal watcher and the store's fencing tell the zone loop, across threads.
final class ZoneControl: Sendable {
  private struct State {
    var terminated = false
    var fenced: String?
    var stopper: LoopStopper?
  }

  private let state = Mutex(State())

  var isTerminated: Bool { state.withLock { $0.terminated } }
  var fenceReason: String? { state.withLock { $0.fenced } }

  /// SIGINT or SIGTERM: stop serving and stop standing by.
  func terminate() {
    let stopper = state.withLock { state in
      state.terminated = true
      return state.stopper
    }
    stopper?.stop()
  }

  /// A write was refused for a newer term: stop serving.
  func fence(_ reason: String) {
    let stopper = state.withLock { state in
      if state.fenced == nil { state.fenced = reason }
      return state.stopper
    }
    stopper?.stop()
  }

  /// The stopper of the broker now serving (nil: none); clears the fence.
  func serving(_ stopper: LoopStopper?) {
    let stop = state.withLock { state in
      state.stopper = stopper
      if stopper == nil { state.fenced = nil }
      return state.terminated
    }
    if stop { stopper?.stop() }
  }
}
