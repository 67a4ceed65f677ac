import Dispatch
import FocusEngine
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import ScreenCore
import Synchronization
import TenFootProtocol

/// The web renderer (`--renderer web`): serves one self-contained page and streams every
/// applied frame to it over a WebSocket; the page draws the grid in CSS 3D and can act as a
/// remote, whose input the screen's loop forwards to the broker.
///
/// The HTTP server runs on SwiftNIO's threads, its tasks on threads of their own
/// (`ServerExecutor`), behind the limits of `GuardedChannel`. The screen's loop thread only
/// publishes encoded frames to a lock-protected broadcaster, and page input reaches the broker
/// through `ScreenInputQueue`, so no ZeroMQ socket is touched off the loop thread.
public final class WebRenderer: Renderer, PairingDisplay, LinkDisplay {
  private let host: String
  private let port: Int
  private let accessKey: WebAccessKey
  private let limits: WebServerLimits
  /// Who may open the WebSockets: the origin check and the key.
  private let admission: WebSocketAdmission
  private let logger: Logger
  private let display: DisplayOptions
  let shared = Shared()
  private var lastLayout: Layout?
  private var layoutJSON = ""
  private var layoutVersion = 0
  private var server: Task<Void, Never>?
  private let finished = DispatchSemaphore(value: 0)
  /// Called once with the URL the server listens on (the real port when `port` is 0).
  private let onListening: @Sendable (String) -> Void
  /// Pages served beside the screen's (the phone remote's, `--phone-remote`), whose code the
  /// screen's page shows.
  private let hosted: (any HostedPages)?
  /// The app's asset directory (`--assets`), served at `/assets/` (nil: none is).
  private let assets: AssetDirectory?
  /// The developer's own page (`--app DIR`): served instead of the built-in one, and its
  /// `tenfoot.js` is the screen's app (nil: the built-in page).
  let app: AssetDirectory?

  /// Things the server's tasks share with the loop thread.
  final class Shared: Sendable {
    let broadcaster = FrameBroadcaster()
    let inputs = Mutex<ScreenInputQueue?>(nil)
    let bound = Mutex<Result<Int, any Error>?>(nil)
    let ready = DispatchSemaphore(value: 0)
    /// Where a developer's page's answers go (`--app`).
    let reactions = Mutex<AppReactionQueue?>(nil)
    /// How many errors went to the page (each error message is numbered).
    let errors = Mutex(0)
    /// The page connection that is the app (`--app`): the newest.
    let appPage = AppPageClaim()
  }

  /// A renderer that will listen on `host`:`port` (0 picks a free port) once started; pages
  /// must present `accessKey`, and their WebSockets come from the page's own origin or one of
  /// `origins`. `onListening` gets the page's URL, key included (for the operator: never log
  /// it above debug). `display` sets the page's reduced motion, contrast and title size (the
  /// page also follows the browser's `prefers-reduced-motion` and `prefers-contrast`).
  /// `limits` bound slow and numerous clients. Items' relative images are served from
  /// `assets` (`AssetRoute`); `hosted` pages (the phone remote's) beside the screen's own.
  public init(
    host: String, port: Int, accessKey: WebAccessKey, logger: Logger,
    display: DisplayOptions = .standard, hosted: (any HostedPages)? = nil,
    limits: WebServerLimits = .standard, origins: WebOrigins = .sameOrigin,
    assets: AssetDirectory? = nil, app: AssetDirectory? = nil,
    onListening: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.app = app
    self.assets = assets
    self.display = display
    self.host = host
    self.port = port
    self.accessKey = accessKey
    self.limits = limits
    self.admission = WebSocketAdmission(accessKey: accessKey, origins: origins)
    self.logger = logger
    self.onListening = onListening
    self.hosted = hosted
  }

  /// Sends the page's remote input to `queue` (the screen client's), from now on.
  public func forwardInputs(to queue: ScreenInputQueue) {
    shared.inputs.withLock { $0 = queue }
  }

  /// The number of pages connected now.
  public var connectedPages: Int { shared.broadcaster.subscriberCount }

  /// Starts the server and waits (up to 10 s) until it listens; throws if it cannot bind.
  public func start() throws {
    let shared = shared
    let logger = logger
    let application = Application(
      router: makeRouter(),
      server: makeServer(),
      configuration: .init(address: .hostname(host, port: port), serverName: "tenfoot-screen"),
      onServerRunning: { channel in
        shared.bound.withLock { $0 = .success(channel.localAddress?.port ?? 0) }
        shared.ready.signal()
      },
      logger: logger)
    let finished = finished
    server = Task.detached(executorPreference: ServerExecutor()) {
      do {
        try await application.runService(gracefulShutdownSignals: [])
      } catch {
        shared.bound.withLock { bound in
          if bound == nil { bound = .failure(error) }
        }
        shared.ready.signal()
        logger.error("web server stopped", metadata: ["error": "\(error)"])
      }
      finished.signal()
    }
    guard shared.ready.wait(timeout: .now() + 10) == .success,
      let result = shared.bound.withLock({ $0 })
    else {
      throw ScreenError.webServerNotListening(timeout: .seconds(10))
    }
    switch result {
    case .success(let port):
      hosted?.listening(host: host, port: port) { shared.broadcaster.publish(.phoneCode, $0) }
      onListening(
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/?key=\(accessKey.hex)")
    case .failure(let error):
      throw ScreenError.webServerCannotListen(host: host, port: port, cause: error)
    }
  }

  /// The page (`/`), the app's images (`/assets/…`, `AssetRoute`), and `/ws` answered without
  /// an upgrade: 403 with the reason for a request `FirstRequestGate` refused, 426 for a plain
  /// GET.
  private func makeRouter() -> Router<BasicRequestContext> {
    let router = Router()
    router.add(middleware: SecurityHeadersMiddleware())
    if let app {
      AppPageRoute.add(to: router, app: app, accessKey: accessKey, logger: logger)
    } else {
      let page = WebPage.html(for: display)
      router.get("/") { request, _ -> Response in PageSecurity.page(page, for: request) }
    }
    AssetRoute.add(to: router, assets: assets, accessKey: accessKey, logger: logger)
    let admission = admission
    let logger = logger
    router.get("/ws") { request, _ -> Response in
      Self.notUpgraded(request, admission: admission, logger: logger, refused: "page refused")
    }
    hosted?.addRoutes(to: router, admission: admission, logger: logger)
    return router
  }

  /// Hummingbird's HTTP/1 server with WebSocket upgrades (`/ws`, and the hosted pages' own:
  /// the phone remote's `/phone/ws`), behind the connection cap, the header and idle timeouts and the origin
  /// check (`GuardedChannel`).
  private func makeServer() -> HTTPServerBuilder {
    let shared = shared
    let logger = logger
    let accessKey = accessKey
    let webSocketRouter = Router(context: PageSocketContext.self)
    webSocketRouter.ws(
      "/ws",
      shouldUpgrade: { request, _ in
        // FirstRequestGate refused a wrong key already (403); this stays as a second lock.
        guard let key = request.uri.queryParameters.get("key"), accessKey.matches(key) else {
          throw HTTPError(.forbidden, message: "missing or wrong key")
        }
        return .upgrade([:])
      }
    ) { [isApp = app != nil] inbound, outbound, context in
      // Only a page that loaded with the key (its cookie) and says it is the app may be it.
      let request = context.request
      let appPage =
        isApp && request.uri.queryParameters.get("role") == "app"
        && AppPageRoute.hasKeyCookie(request.headers, accessKey: accessKey)
      try await Self.serve(
        inbound: inbound, outbound: outbound, shared: shared, logger: logger, app: isApp,
        appPage: appPage, eventLoop: context.requestContext.eventLoop)
    }
    hosted?.addSockets(to: webSocketRouter, logger: logger)
    let responder = webSocketRouter.buildResponder()
    // A developer's page sends its measured layout: one frame may be megabytes.
    let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
      http1: .init(idleTimeout: TimeAmount(limits.idleTimeout)),
      ws: app == nil ? .init() : .init(maxFrameSize: Self.appMessageLimit))
    let census = ConnectionCensus(limits: limits)
    let admission = admission
    let overCap = ThrottledNotice(
      "web connection refused: too many open", logger: logger, interval: limits.noticeInterval)
    let slowHeaders = ThrottledNotice(
      "web connection closed: request headers too slow", logger: logger,
      interval: limits.noticeInterval)
    return HTTPServerBuilder { httpResponder in
      GuardedChannel(
        base: HTTP1WebSocketUpgradeChannel(
          responder: httpResponder, webSocketResponder: responder, configuration: configuration),
        census: census, admission: admission, overCap: overCap, slowHeaders: slowHeaders)
    }
  }

  /// The answer to a GET of a WebSocket path that was not upgraded: 403 with the reason when
  /// `admission` refuses it (logged as `refused`), else 426 (it must be a WebSocket).
  package static func notUpgraded(
    _ request: Request, admission: WebSocketAdmission, logger: Logger, refused: Logger.Message
  ) -> Response {
    let origin = request.headers[.origin]
    let text: String
    let status: HTTPResponse.Status
    if let reason = admission.refusal(
      uri: request.uri.description, host: request.head.authority, origin: origin)
    {
      logger.notice(
        refused,
        metadata: [
          "reason": "\(reason)", "origin": "\(origin.map(WebOrigins.printable) ?? "none")",
        ])
      (status, text) = (.forbidden, reason)
    } else {
      (status, text) = (.upgradeRequired, "this address takes WebSocket connections only")
    }
    return Response(
      status: status, headers: [.contentType: "text/plain; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
  }

  /// Encodes the frame (and the layout when it changed) and hands it to every page.
  public func render(_ frame: ScreenFrame) throws {
    if app != nil { return try renderForApp(frame) }
    // Content supplied for virtual items travels in the frames (only the items in view).
    let shape = frame.layout.virtualShape
    if shape != lastLayout {
      layoutJSON = try WebMessages.layout(shape)
      layoutVersion += 1
      lastLayout = shape
    }
    shared.broadcaster.publish(
      .init(layoutVersion: layoutVersion, layout: layoutJSON, frame: try WebMessages.frame(frame)))
  }

  /// Shows the pairing PIN over the page (or hides it, with nil) on every connected page.
  public func showPairing(_ overlay: PairingOverlay?) throws {
    shared.broadcaster.publish(.pairing, try WebMessages.pairing(overlay))
    hosted?.showPairing(overlay)
  }

  /// Shows (true) or hides (false) the notice that pairing is closed on every connected page.
  public func showPairingClosed(_ closed: Bool) throws {
    shared.broadcaster.publish(.pairingClosed, closed ? "true" : "false")
  }

  /// Shows (lost) or hides (up) the banner that says the broker does not answer, and marks
  /// the last state shown stale.
  public func showLink(_ link: BrokerLink) throws {
    shared.broadcaster.publish(.link, WebMessages.link(link))
  }

  /// Never needs waking: the server has its own threads.
  public var wakeFileDescriptor: Int32? { nil }

  /// Never called.
  public func handleWake() throws {}

  /// Stops the server (bounded: 5 s) and closes every page's stream.
  public func stop() {
    guard let server else { return }
    self.server = nil
    hosted?.stop()
    shared.broadcaster.finishAll()
    server.cancel()
    if finished.wait(timeout: .now() + 5) == .timedOut {
      logger.warning("web server did not stop within 5 s")
    }
  }

  /// One page's connection: frames out, remote input in, until either side ends.
  ///
  /// With a developer's page (`app`), only an `appPage` connection (`role=app` and the key
  /// cookie: a browser that loaded the page) claims the app, taking over from the previous
  /// one; any other connection (a viewer, a tool with only the key) gets frames, and its
  /// messages are ignored.
  ///
  /// Frames are written from `eventLoop`, the connection's (`EventLoopExecutor`); the rest
  /// (the page's messages: a layout may be megabytes) runs on the server's threads.
  private static func serve(
    inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, shared: Shared,
    logger: Logger, app: Bool, appPage: Bool, eventLoop: any EventLoop
  ) async throws {
    let updates = shared.broadcaster.subscribe()
    let (takenOver, takeOver) = AsyncStream.makeStream(of: Void.self)
    // This connection's own errors (its messages refused): never another connection's.
    let (errors, report) = AsyncStream.makeStream(
      of: String.self, bufferingPolicy: .bufferingNewest(16))
    let claim = appPage ? shared.appPage.claim { takeOver.yield() } : nil
    logger.info("page connected", metadata: ["page.app": "\(appPage)"])
    defer {
      if let claim { shared.appPage.release(claim) }
      logger.info("page disconnected")
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      if claim != nil {
        group.addTask {
          for await _ in takenOver {
            logger.info("page taken over by a newer one")
            try await outbound.write(.text(AppPageClaim.inactiveMessage))
            return
          }
        }
      }
      if app {
        group.addTask {
          for await error in errors { try await outbound.write(.text(error)) }
        }
      }
      group.addTask(executorPreference: EventLoopExecutor(eventLoop)) {
        var sentVersion: Int?
        var sentOverlays: [FrameBroadcaster.Overlay: Int] = [:]
        for await update in updates {
          if update.layoutVersion != sentVersion, !update.layout.isEmpty {
            try await outbound.write(.text("{\"layout\":\(update.layout)}"))
            sentVersion = update.layoutVersion
          }
          try await outbound.write(
            .text(PageTrace.message(frame: update.frame, trace: update.trace)))
          for overlay in FrameBroadcaster.Overlay.allCases {
            guard let (version, json) = update.overlays[overlay],
              version != sentOverlays[overlay, default: 0]
            else { continue }
            try await outbound.write(.text("{\"\(overlay.rawValue)\":\(json)}"))
            sentOverlays[overlay] = version
          }
        }
      }
      group.addTask {
        var input = PageInput()
        var toldIgnored = false
        for try await message in inbound.messages(maxSize: app ? appMessageLimit : 64 * 1024) {
          guard case .text(let text) = message else { continue }
          if app, !(claim.map(shared.appPage.holds) ?? false) {
            if claim == nil, !toldIgnored {
              toldIgnored = true
              logger.notice("message ignored: the connection is not the app page")
            }
            continue
          }
          if app,
            handleAppMessage(
              text, shared: shared, logger: logger, report: { report.yield($0) })
          {
            continue
          }
          do {
            let event = try input.event(from: text)
            shared.inputs.withLock { $0 }?.enqueue(event)
          } catch {
            logger.notice("ignored page input", metadata: ["problem": "\(error)"])
          }
        }
      }
      _ = try await group.next()
      group.cancelAll()
    }
  }
}
