import Foundation
import ZeroMQ

/// A revoke's cut-off of the state socket, run as loop timers: the loop goes on serving
/// requests and heartbeats while the old listeners close and the endpoints are bound again.
extension Broker {
  /// How often a cut checks whether its listeners closed, and retries a bind the old listener
  /// still blocks.
  static let stateCutStep: Duration = .milliseconds(5)

  /// Cuts every connection on the state socket, because a revoked peer may hold one: a PUB
  /// socket cannot refuse one subscriber, and ZAP runs only when a connection starts.
  ///
  /// `zmq_unbind` closes the listener and every session accepted on it (libzmq terminates
  /// a listener's sessions with it); with LINGER 0 nothing queued is flushed. The endpoints
  /// are bound again (wildcard ports resolved, so the same port) once libzmq reports each
  /// listener closed (at most 1 s), retrying a bind refused with `EADDRINUSE` for at most 2 s
  /// from the start: honest subscribers reconnect within their reconnect interval (100 to
  /// 250 ms for screens), pass ZAP and resync; the revoked key is refused. A revoke noticed
  /// while a cut runs starts another cut when it ends.
  ///
  /// The connections are cut here, at once (before anything more is published); the rest
  /// runs on the loop from `continueStateCut(on:)`.
  func cutStateConnections(revoked: Set<String>) {
    if let stateCut {
      stateCut.next.formUnion(revoked)
      return
    }
    let cut = StateCut(revoked: revoked, started: .now)
    do {
      cut.monitor = try SocketMonitor(
        context: context, watching: state, name: "tenfoot-broker-state-cut",
        events: SocketEvent.closed)
    } catch {
      // Without the monitor, binding again may race the old listener; retries cover it.
      logger.warning("cannot watch the state socket during a cut", metadata: ["error": "\(error)"])
    }
    for endpoint in boundStateEndpoints {
      do {
        try state.unbind(endpoint)
        cut.unbound.append(endpoint)
      } catch {
        logger.error(
          "cannot cut the state endpoint",
          metadata: ["zmq.endpoint": "\(endpoint)", "error": "\(error)"])
      }
    }
    cut.toBind = cut.unbound
    stateCut = cut
  }

  /// Goes on with a cut `cutStateConnections` started: waits for the listeners to close and
  /// binds the endpoints again, as timers on `loop`. Called after every iteration.
  func continueStateCut(on loop: EventLoop) {
    guard let stateCut, !stateCut.continuing else { return }
    stateCut.continuing = true
    awaitClosed(stateCut, on: loop)
  }

  /// Reads the cut's monitor until every unbound listener reported closed (or 1 s passed),
  /// looking again every `stateCutStep`; then binds the endpoints again.
  private func awaitClosed(_ cut: StateCut, on loop: EventLoop) {
    if let monitor = cut.monitor {
      do {
        while let event = try monitor.next() {
          if event.event == SocketEvent.closed { cut.closed += 1 }
        }
      } catch {
        logger.warning("state monitor failed", metadata: ["error": "\(error)"])
        cut.closed = cut.unbound.count
      }
      if cut.closed < cut.unbound.count, loop.now < cut.started + .seconds(1) {
        loop.schedule(after: Self.stateCutStep) { [unowned self, unowned loop] in
          awaitClosed(cut, on: loop)
        }
        return
      }
      if cut.closed < cut.unbound.count {
        logger.warning("state listener not closed in time", metadata: ["closed": "\(cut.closed)"])
      }
      try? state.stopMonitor()
      cut.monitor = nil
    }
    bindAgain(cut, on: loop)
  }

  /// Binds the cut's endpoints again, retrying every `stateCutStep` while an old listener
  /// still holds an address (until 2 s from the start); then ends the cut.
  private func bindAgain(_ cut: StateCut, on loop: EventLoop) {
    cut.toBind.removeAll { endpoint in
      do throws(ZeroMQError) {
        try state.bind(endpoint)
        return true
      } catch {
        // libzmq's I/O thread closes the old listener any moment now.
        if error.errno == EADDRINUSE, loop.now < cut.started + .seconds(2) { return false }
        logger.error(
          "cannot bind the state endpoint again",
          metadata: ["zmq.endpoint": "\(endpoint)", "error": "\(error)"])
        cut.failed.append(endpoint)
        return true
      }
    }
    guard cut.toBind.isEmpty else {
      loop.schedule(after: Self.stateCutStep) { [unowned self, unowned loop] in
        bindAgain(cut, on: loop)
      }
      return
    }
    finish(cut, on: loop)
  }

  /// Logs how the cut went, keeps its lost endpoints for the heartbeat to retry, and starts
  /// the cut revokes noticed meanwhile asked for.
  private func finish(_ cut: StateCut, on loop: EventLoop) {
    stateCut = nil
    let elapsed = loop.now - cut.started
    if cut.unbound.count == boundStateEndpoints.count {
      logger.notice(
        "revoked peer cut off",
        metadata: [
          "peer.ids": "\(cut.revoked.sorted())", "zmq.state": "\(cut.unbound)",
          "cut.us": "\(elapsed / .microseconds(1))",
        ])
    } else {
      logger.error(
        "revoked peer may still receive state: an endpoint could not be cut",
        metadata: ["peer.ids": "\(cut.revoked.sorted())", "zmq.state.cut": "\(cut.unbound)"])
    }
    if !cut.failed.isEmpty {
      logger.critical(
        "state endpoint lost: cannot bind it again after a cut; retrying every heartbeat",
        metadata: ["zmq.state": "\(cut.failed)"])
      lostStateEndpoints += cut.failed
    }
    if !cut.next.isEmpty {
      cutStateConnections(revoked: cut.next)
      continueStateCut(on: loop)
    }
  }
}

/// A state cut in progress (see `Broker.cutStateConnections`): what it unbound, what it
/// still has to bind again, and the revokes noticed meanwhile.
final class StateCut {
  let revoked: Set<String>
  let started: ContinuousClock.Instant
  var monitor: SocketMonitor?
  var unbound: [String] = []
  var closed = 0
  var toBind: [String] = []
  var failed: [String] = []
  var next: Set<String> = []
  /// Whether the loop runs its remaining steps.
  var continuing = false

  init(revoked: Set<String>, started: ContinuousClock.Instant) {
    self.revoked = revoked
    self.started = started
  }
}
