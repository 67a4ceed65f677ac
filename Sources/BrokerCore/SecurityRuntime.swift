import BrokerDomain
import Logging
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// The broker's security half, owned by the broker's loop thread, in three parts: the
/// allow-list as the rules see it (`AllowListKeeper`), the ZAP handler that admits CURVE
/// clients by it (`ZapHandler`), and the pairing socket (`PairingServer`). `Broker` registers
/// their sockets on its loop, asks whether each control message's sender is still allowed, and
/// which revoked keys it must cut off the state socket.
final class SecurityRuntime {
  static let zapEndpoint = ZapHandler.endpoint
  /// The topic screens receive pairing prompts on.
  static let pairingTopic = PairingServer.topic

  private let settings: BrokerSecurity
  private let logger: Logger
  private let allowList: AllowListKeeper
  private let zap: ZapHandler
  private let pairing: PairingServer

  /// Binds the ZAP handler (before any CURVE socket binds) and the pairing socket; the
  /// allow-list's checks and writes are answered through `waker` (see `answersArrived`).
  init(
    settings: BrokerSecurity, context: Context, quarantine: PeerQuarantine.Policy = .standard,
    clock: BrokerClock, logger: Logger, waker: Waker
  ) throws {
    self.settings = settings
    self.logger = logger
    let store = try settings.allowList?() ?? AllowListStore(path: settings.allowListPath)
    allowList = AllowListKeeper(store: store, clock: clock, logger: logger, waker: waker)
    zap = try ZapHandler(
      context: context, allowList: allowList, quarantine: quarantine, clock: clock,
      logger: logger)
    pairing = try PairingServer(
      settings: settings, context: context, allowList: allowList, clock: clock, logger: logger)
  }

  /// The pairing endpoints actually bound.
  var boundPairingEndpoints: [String] { pairing.boundEndpoints }

  /// Screen id → the hex key of the screen key that owns it (from the allow-list).
  var owners: [String: String] { allowList.owners }

  /// Makes `socket` a CURVE server that authenticates through the ZAP handler, in ZAP
  /// `domain` (the state socket has its own, so the handler knows who subscribes).
  func secure(_ socket: Socket, domain: String = ZapPolicy.domain) throws(ZeroMQError) {
    try socket.setZapDomain(domain)
    try socket.setCurveServer(secretKey: settings.keyPair.secretKey)
  }

  /// Serves the ZAP and pairing sockets (and reloads on the allow-list watcher) on `loop`;
  /// pairing prompts go out through `publish`. Without inotify, a timer looks at the
  /// allow-list file every 100 ms, so a revoke never waits for the next heartbeat.
  func register(
    in loop: EventLoop, publish: @escaping (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void
  ) {
    if let watcher = allowList.watcher {
      loop.whenReadable(fileDescriptor: watcher.fileDescriptor) { [unowned self] in
        allowList.watcherFired()
      }
    }
    loop.whenReadable(zap.socket) { [unowned self] in zap.serve() }
    loop.whenReadable(pairing.socket) { [unowned self] in pairing.serve(publish: publish) }
    if allowList.needsReloadTimer { checkAllowListEvery100Milliseconds(on: loop) }
  }

  private func checkAllowListEvery100Milliseconds(on loop: EventLoop) {
    loop.schedule(after: .milliseconds(100)) { [unowned self, unowned loop] in
      allowList.reloadIfDue(force: false)
      checkAllowListEvery100Milliseconds(on: loop)
    }
  }

  /// The ids revoked since the last call that had been admitted to the state socket: the
  /// broker cuts the state socket's connections so they must pass ZAP again.
  func takeRevokedSubscribers() -> Set<String> {
    allowList.takeRevokedSubscribers()
  }

  /// Who sent a control message with this `User-Id`, as the rules see it; nil if its key is
  /// no longer on the allow-list (revoked). Allow-listed peers are re-checked against the
  /// current list (`AllowListKeeper.settle`: one `stat` of the file per message; a zone's store
  /// is asked off the loop at most every 100 ms), so a revoke of the file takes effect at once
  /// on open connections.
  func principal(for access: PeerAccess) -> Principal? {
    guard case .peer(let key) = access else { return .local }
    allowList.settle()
    return allowList.principal(forKey: key)
  }

  /// Binds `screen` to the screen key `key` on the allow-list (its first registration), off
  /// the loop: `key` owns it at once; `done` runs on the loop once the binding is durable or
  /// failed (logged; the claim is undone and made again by the next registration).
  func bind(screen: String, key: String, then done: @escaping () -> Void) {
    allowList.claim(screen, by: key) { [logger] result in
      switch result {
      case .success:
        logger.notice("screen claimed", metadata: ["screen": "\(screen)", "peer.key": "\(key)"])
      case .failure(let error):
        logger.error(
          "cannot save the allow-list: the screen's claim is not saved",
          metadata: ["screen": "\(screen)", "error": "\(error)"])
      }
      done()
    }
  }

  /// Applies the allow-list's checks and ends its writes whose answers arrived (on the loop,
  /// after a wake-up): pairings and registrations waiting for theirs are answered.
  func answersArrived() {
    allowList.answersArrived()
  }

  /// Someone at `screen` opens pairing again with the screen's key (`open_pairing`);
  /// `registered`: the broker's sessions. Returns the reply.
  func openPairing(
    at screen: String, by principal: Principal, registered: [String],
    publish: (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void
  ) -> Tenfoot_V1_Envelope.OneOf_Body {
    allowList.settle()
    return pairing.openAtScreen(screen, by: principal, registered: registered, publish: publish)
  }

  /// Periodic work: reload the allow-list if changed, end an expired pairing and the
  /// quarantines that are over.
  func tick(now: BrokerInstant, publish: (String, Tenfoot_V1_Envelope.OneOf_Body) -> Void) {
    allowList.reloadIfDue(force: false)
    pairing.tick(now: now, publish: publish)
    if !zap.quarantine.isEmpty {
      for key in zap.quarantine.lift(at: now) {
        logger.notice("peer quarantine over: its key is welcome again", metadata: peer(key))
      }
    }
  }

  /// The keys refused for flooding (`PeerQuarantine`), which the ZAP handler consults.
  var quarantine: PeerQuarantine {
    // Read in place: the broker asks `isEmpty` on every message of a key.
    _read { yield zap.quarantine }
    _modify { yield &zap.quarantine }
  }

  /// Log metadata naming the key with `User-Id` `userID`: its id on the allow-list (as
  /// `remotes list` shows it) and its role.
  func peer(_ userID: String) -> Logger.Metadata {
    guard let principal = principal(for: PeerAccess(userID: userID)) else {
      return ["peer.user": "\(userID)"]
    }
    return ["peer.id": "\(principal.id)", "peer.role": "\(principal.role.rawValue)"]
  }
}
