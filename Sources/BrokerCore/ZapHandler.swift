import BrokerDomain
import Logging
import TenFootSecurity
import ZeroMQ

/// The ZAP handler on `inproc://zeromq.zap.01`: libzmq asks it, for every CURVE handshake on
/// the broker's sockets, whether the client's key may connect; the allow-list decides
/// (`ZapPolicy`), and peers admitted to the state socket are noted for revocation.
final class ZapHandler {
  static let endpoint = "inproc://zeromq.zap.01"

  let socket: Socket
  private let allowList: AllowListKeeper
  private let logger: Logger
  private let clock: BrokerClock
  /// Keeps "peer refused" lines (a refused client retries every 100 ms) to a few a second.
  private var logLimiter = LogLimiter()
  /// The keys refused for flooding (the broker's loop counts their bytes over budget), by
  /// their `User-Id`.
  var quarantine: PeerQuarantine

  /// Binds the handler: before any CURVE socket binds, or libzmq admits everyone.
  init(
    context: Context, allowList: AllowListKeeper, quarantine: PeerQuarantine.Policy,
    clock: BrokerClock, logger: Logger
  ) throws(ZeroMQError) {
    socket = try Socket(context, .reply)
    try socket.bind(Self.endpoint)
    self.allowList = allowList
    self.quarantine = PeerQuarantine(policy: quarantine)
    self.clock = clock
    self.logger = logger
  }

  /// Answers every queued ZAP request (at most 64 per call).
  func serve() {
    for _ in 0..<64 {
      let frames: [[UInt8]]
      do {
        guard let received = try socket.receiveMultipart(dontWait: true) else { return }
        frames = received
      } catch {
        logger.warning("zap receive failed", metadata: ["error": "\(error)"])
        return
      }
      allowList.settle()
      guard let request = ZapPolicy.Request(frames: frames) else {
        // A REP socket must answer: refuse with a well-formed reply if we can.
        let id = frames.count > 1 ? frames[1] : []
        send(
          ZapPolicy.Decision(status: "500", text: "bad request", userID: "").frames(requestID: id))
        continue
      }
      let decision = ZapPolicy.decide(
        request, allowList: allowList.list, quarantine: quarantine, at: clock.now)
      if decision.admitted {
        if request.domain == ZapPolicy.stateDomain {
          allowList.admittedToState(PeerAccess(userID: decision.userID))
        }
        logger.debug(
          "peer admitted",
          metadata: [
            "peer.address": "\(request.address)", "peer.user": "\(decision.userID)",
            "zap.domain": "\(request.domain)",
          ])
      } else if decision.text == ZapPolicy.quarantinedText {
        // Logged once, when the quarantine started; a refused client retries every 100 ms.
        logger.debug(
          "peer refused: quarantined",
          metadata: ["peer.address": "\(request.address)", "zap.domain": "\(request.domain)"])
      } else {
        logLimiter.log(
          .notice, "peer refused",
          metadata: [
            "peer.address": "\(request.address)", "reason": "\(decision.text)",
            "zap.domain": "\(request.domain)",
          ], to: logger, at: clock.now)
      }
      send(decision.frames(requestID: request.requestID))
    }
  }

  private func send(_ frames: [[UInt8]]) {
    do {
      try socket.send(frames: frames)
    } catch {
      logger.warning("zap reply failed", metadata: ["error": "\(error)"])
    }
  }
}
