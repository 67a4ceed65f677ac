import FocusEngine
import Logging
import TenFootProtocol
import ZeroMQ

/// The link with the broker: the screen's heartbeats, the broker's (how long it may be
/// silent), the banner when it falls silent or its state connection closes, and the state
/// connection's handshakes.
extension ScreenClient {
  /// Schedules the next screen heartbeat at `deadline`, replacing the pending one.
  func scheduleBeat(at deadline: ContinuousClock.Instant) {
    // An app in its own process keeps no session alive (the screen showing it does), and an
    // app key may not send heartbeats: it hears the broker's on the state socket.
    guard let loop, !isAttachedApp else { return }
    if let beatTimer { loop.cancel(beatTimer.id) }
    let id = loop.schedule(at: deadline) { [unowned self, unowned loop] in
      scheduleBeat(at: loop.now + beatInterval)
      beat()
    }
    beatTimer = (id, deadline)
  }

  /// How long the broker may be silent before the screen says it is gone: twice the gap
  /// between its heartbeats (1 s by default), at least 1.5 s and at most 30 s.
  var linkTimeout: Duration {
    min(.seconds(30), max(.milliseconds(1500), heartbeatGap * 2))
  }

  /// Every 250 ms: marks the link lost once the broker has been silent for `linkTimeout`.
  func watchLink(on loop: EventLoop) {
    loop.schedule(after: .milliseconds(250)) { [unowned self, unowned loop] in
      watchLink(on: loop)
      if link == .up, loop.now - lastHeard > linkTimeout {
        try linkLost(reason: "no broker heartbeat")
      }
    }
  }

  /// The broker is gone: the renderers say so and keep the last state, marked stale.
  func linkLost(reason: String) throws {
    guard link == .up else { return }
    link = .lost
    logger.warning(
      "broker not answering: the screen shows its last state, marked stale",
      metadata: ["reason": "\(reason)", "zmq.endpoint": "\(configuration.endpoints.state)"])
    try (renderer as? any LinkDisplay)?.showLink(.lost)
  }

  /// The broker was heard: once the screen is in sync again, the banner goes.
  func heard(heartbeat: Bool) throws {
    let now = configuration.clock.now
    if heartbeat {
      if let lastHeartbeat { heartbeatGap = now - lastHeartbeat }
      lastHeartbeat = now
    }
    lastHeard = now
    guard link == .lost, !sync.awaitingSnapshot else { return }
    link = .up
    logger.notice(
      "broker answering again", metadata: ["zmq.endpoint": "\(configuration.endpoints.state)"])
    try (renderer as? any LinkDisplay)?.showLink(.up)
  }

  /// Reacts to the state socket's handshakes (see `stateMonitor`).
  func handleStateConnectionEvents() throws {
    while let event = try stateMonitor.next() {
      if event.event == SocketEvent.disconnected {
        // One broker: its connection closing means it is gone (a zone's standby may close
        // while the active one still publishes, so there the heartbeats decide). The requests
        // sent to it fail as its control connection closes (`ControlRequests`).
        if Endpoints.list(configuration.endpoints.state).count == 1 {
          try linkLost(reason: "state connection closed")
        }
        continue
      }
      if event.event == SocketEvent.handshakeFailedAuth {
        logger.error(
          "state connection refused: this screen's key is not on the broker's allow-list",
          metadata: ["zmq.endpoint": "\(configuration.endpoints.state)"])
        throw notPaired
      }
      guard event.event == SocketEvent.handshakeSucceeded else { continue }
      stateConnections += 1
      if stateConnections > 1 && !sync.awaitingSnapshot {
        try resync(reason: "state connection re-established")
      }
    }
  }

  /// How often the screen tells the broker it is alive, before the broker's heartbeat has
  /// said how long its grace period is.
  static let beatInterval: Duration = .seconds(1)

  /// Four beats per grace period, at most one a second and at least every 50 ms: one late
  /// or lost beat on a loaded machine never drops a live screen.
  public static func beatInterval(grace: Duration) -> Duration {
    min(Self.beatInterval, max(.milliseconds(50), grace / 4))
  }
}
