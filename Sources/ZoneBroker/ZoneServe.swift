import BrokerCore
import Foundation
import Logging
import TenFootPostgres
import TenFootStore
import ZeroMQ

/// A broker of a zone on a PostgreSQL store: stands by, connected, until it takes the zone's
/// lock; then binds and serves under a new term until it is fenced, loses its lock or is
/// stopped; then unbinds and stands by again.
///
/// Its waits (between tries of the lock, after a failure) are `ZoneControl.pause`, which a
/// SIGTERM ends at once.
public struct ZoneServe {
  let url: PostgresURL
  let leadership: ZoneLeadership
  let base: BrokerConfiguration
  let logger: Logger
  /// Announces the active broker on the network (mDNS); what it returns is stopped when the
  /// broker steps down.
  let announce: (BrokerThread) -> (any ZoneAnnouncement)?
  /// How often a standby tries the lock.
  static let pollInterval = Duration.milliseconds(50)
  /// How long to wait after the store failed before trying again.
  static let retryInterval = Duration.milliseconds(500)

  /// A zone loop for the broker `base` configures, on the store at `url`.
  public init(
    url: PostgresURL, leadership: ZoneLeadership, base: BrokerConfiguration, logger: Logger,
    announce: @escaping (BrokerThread) -> (any ZoneAnnouncement)?
  ) {
    self.url = url
    self.leadership = leadership
    self.base = base
    self.logger = logger
    self.announce = announce
  }

  /// Stands by and serves until `control` is terminated (the executable terminates it on
  /// SIGINT or SIGTERM).
  public func run(control: ZoneControl) throws {
    let context = try BrokerThread.context(for: base)
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
          _ = control.pause(Self.pollInterval)
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
        _ = control.pause(Self.retryInterval)
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
      store.onFenced = { fenced in control.fence(.fenced(fenced)) }
      // Its sessions in memory may be behind the store: take the zone again, loading it.
      store.onOutcomeUnknown = { failure in control.fence(.outcomeUnknown(failure)) }
      return store
    }
    // The allow-list and revocations live in the zone's store too, read and written (under
    // the term) over the same connection, on the broker's thread: loaded here, at takeover.
    configuration.security?.allowList = {
      let peers = try PostgresAllowListStore(link: link, zone: zone, term: term, logger: logger)
      peers.onFenced = { fenced in control.fence(.fenced(fenced)) }
      return peers
    }
    let broker: BrokerThread
    do {
      broker = try BrokerThread(configuration: configuration, context: context, logger: logger)
    } catch {
      logger.error(
        "cannot serve after taking the zone: stepping down",
        metadata: ["zone": "\(zone)", "zone.term": "\(term)", "error": "\(error)"])
      _ = control.pause(Self.retryInterval)
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
  private func keepActive(_ broker: BrokerThread, control: ZoneControl) -> StepDownReason? {
    while true {
      if broker.wait(milliseconds: Int(leadership.renewInterval / .milliseconds(1))) {
        return control.isTerminated ? nil : control.fenceReason ?? .loopEnded
      }
      if control.isTerminated { return nil }
      if let fenced = control.fenceReason { return fenced }
      do {
        try leadership.renew()
      } catch .fenced(let fenced) {
        return .fenced(fenced)
      } catch {
        return .lostLock(error)
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

/// An announcement of the active broker on the network, stopped when it steps down.
public protocol ZoneAnnouncement {
  func stop()
}
