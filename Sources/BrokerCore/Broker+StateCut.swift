import Foundation
import ZeroMQ

/// A revoke's cut-off of the state socket (moved out of Broker.swift to keep the loop short).
extension Broker {
  /// Cuts every connection on the state socket, because a revoked peer may hold one: a PUB
  /// socket cannot refuse one subscriber, and ZAP runs only when a connection starts.
  ///
  /// `zmq_unbind` closes the listener and every session accepted on it (libzmq terminates
  /// a listener's sessions with it); with LINGER 0 nothing queued is flushed. The endpoints
  /// are bound again (wildcard ports resolved, so the same port) once libzmq reports each
  /// listener closed: honest subscribers reconnect within their reconnect interval (100 to
  /// 250 ms for screens), pass ZAP and resync; the revoked key is refused.
  func cutStateConnections(revoked: Set<String>) {
    let started = ContinuousClock.now
    let monitor: SocketMonitor?
    do {
      monitor = try SocketMonitor(
        context: context, watching: state, name: "tenfoot-broker-state-cut",
        events: SocketEvent.closed)
    } catch {
      // Without the monitor, binding again may race the old listener; retries cover it.
      logger.warning("cannot watch the state socket during a cut", metadata: ["error": "\(error)"])
      monitor = nil
    }
    var unbound: [String] = []
    for endpoint in boundStateEndpoints {
      do {
        try state.unbind(endpoint)
        unbound.append(endpoint)
      } catch {
        logger.error(
          "cannot cut the state endpoint",
          metadata: ["zmq.endpoint": "\(endpoint)", "error": "\(error)"])
      }
    }
    if let monitor {
      awaitClosed(unbound.count, monitor: monitor, until: started + .seconds(1))
      try? state.stopMonitor()
    }
    var failed: [String] = []
    for endpoint in unbound where !bindAgain(endpoint, until: started + .seconds(2)) {
      failed.append(endpoint)
    }
    let elapsed = ContinuousClock.now - started
    if unbound.count == boundStateEndpoints.count {
      logger.notice(
        "revoked peer cut off",
        metadata: [
          "peer.ids": "\(revoked.sorted())", "zmq.state": "\(unbound)",
          "cut.us": "\(elapsed / .microseconds(1))",
        ])
    } else {
      logger.error(
        "revoked peer may still receive state: an endpoint could not be cut",
        metadata: ["peer.ids": "\(revoked.sorted())", "zmq.state.cut": "\(unbound)"])
    }
    if !failed.isEmpty {
      logger.critical(
        "state endpoint lost: cannot bind it again after a cut; retrying every heartbeat",
        metadata: ["zmq.state": "\(failed)"])
      lostStateEndpoints += failed
    }
  }

  /// Reads `monitor` until `count` listeners reported closed, or `deadline` passes.
  private func awaitClosed(
    _ count: Int, monitor: SocketMonitor, until deadline: ContinuousClock.Instant
  ) {
    var closed = 0
    do {
      repeat {
        while let event = try monitor.next() {
          if event.event == SocketEvent.closed { closed += 1 }
        }
        if closed >= count { return }
      } while try monitor.socket.awaitInput(until: deadline)
      logger.warning("state listener not closed in time", metadata: ["closed": "\(closed)"])
    } catch {
      logger.warning("state monitor failed", metadata: ["error": "\(error)"])
    }
  }

  /// Binds `endpoint` again, retrying while the old listener still holds the address.
  private func bindAgain(_ endpoint: String, until deadline: ContinuousClock.Instant) -> Bool {
    while true {
      do {
        try state.bind(endpoint)
        return true
      } catch {
        guard error.errno == EADDRINUSE, ContinuousClock.now < deadline else {
          logger.error(
            "cannot bind the state endpoint again",
            metadata: ["zmq.endpoint": "\(endpoint)", "error": "\(error)"])
          return false
        }
        usleep(5000)  // libzmq's I/O thread closes the old listener any moment now.
      }
    }
  }
}
