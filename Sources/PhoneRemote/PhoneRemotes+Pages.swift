import Hummingbird
import HummingbirdWebSocket
import Logging
import ScreenCore
import WebScreen

extension PhoneRemotes: HostedPages {
  /// The phone remote's page: `GET /phone` (the remote-only page, or a 403 page saying why
  /// the code does not work), and `/phone/ws` answered without an upgrade.
  public func addRoutes(
    to router: Router<BasicRequestContext>, admission: WebSocketAdmission, logger: Logger
  ) {
    router.get("/phone") { request, _ -> Response in
      let query = request.uri.queryParameters
      let refusal = self.admits(
        token: query.get("token"), session: query.get("session"))
      let page = refusal.map { PhonePage.refused($0.description) } ?? PhonePage.html
      return PageSecurity.page(page, for: request, status: refusal == nil ? .ok : .forbidden)
    }
    router.get("/phone/ws") { request, _ -> Response in
      WebRenderer.notUpgraded(
        request, admission: admission, logger: logger, refused: "phone page refused")
    }
  }

  /// The phone page's WebSocket `/phone/ws`, which uses the code's token up.
  public func addSockets(to webSocketRouter: Router<PageSocketContext>, logger: Logger) {
    webSocketRouter.ws("/phone/ws") { inbound, outbound, context in
      let query = context.request.uri.queryParameters
      let session: PhoneSession
      switch self.session(token: query.get("token"), secret: query.get("session")) {
      case .success(let found): session = found
      case .failure(let refusal):
        logger.notice("phone page refused", metadata: ["reason": "\(refusal)"])
        let message = "{\"phone\":{\"state\":\"refused\",\"message\":\"\(refusal.description)\"}}"
        try await outbound.write(.text(message))
        return
      }
      logger.info("phone page connected", metadata: ["phone": "\(session.name)"])
      defer { logger.info("phone page disconnected", metadata: ["phone": "\(session.name)"]) }
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for await status in session.statuses() {
            try await outbound.write(
              .text(status.message(name: session.name, secret: session.secret)))
          }
        }
        group.addTask {
          var input = PageInput()
          for try await message in inbound.messages(maxSize: 64 * 1024) {
            guard case .text(let text) = message, let event = try? input.event(from: text)
            else { continue }
            session.enqueue(event)
          }
        }
        _ = try await group.next()
        group.cancelAll()
      }
    }
  }

  /// A pairing prompt reached the screen: the sessions waiting for their PIN read it.
  public func showPairing(_ overlay: PairingOverlay?) { loop.post(overlay) }
}

extension PhoneSession.Status {
  /// A phone session's status for its page: `{"state":…,"name":…}` plus the session secret
  /// once connected, or the reason it failed.
  func message(name: String, secret: String) -> String {
    var object = ["name": name]
    switch self {
    case .pairing: object["state"] = "pairing"
    case .connected(let id):
      object["state"] = "connected"
      object["id"] = id
      object["session"] = secret
    case .revoked: object["state"] = "revoked"
    case .failed(let reason):
      object["state"] = "failed"
      object["message"] = reason
    }
    return "{\"phone\":" + ((try? WebMessages.encode(object)) ?? "null") + "}"
  }
}
