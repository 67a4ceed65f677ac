import Dispatch
import FocusEngine
import Foundation
import Hummingbird
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
/// The HTTP server runs on SwiftNIO's threads. The screen's loop thread only publishes
/// encoded frames to a lock-protected broadcaster, and page input reaches the broker through
/// `ScreenInputQueue`, so no ZeroMQ socket is touched off the loop thread.
public final class WebRenderer: Renderer, PairingDisplay {
  private let host: String
  private let port: Int
  private let accessKey: WebAccessKey
  private let logger: Logger
  private let display: DisplayOptions
  private let shared = Shared()
  private var lastLayout: Layout?
  private var layoutJSON = ""
  private var layoutVersion = 0
  private var server: Task<Void, Never>?
  private let finished = DispatchSemaphore(value: 0)
  /// Called once with the URL the server listens on (the real port when `port` is 0).
  private let onListening: @Sendable (String) -> Void
  /// The phone remote (`--phone-remote`): its QR code on the page and its own pages.
  private let phone: PhoneRemotes?

  /// Things the server's tasks share with the loop thread.
  final class Shared: Sendable {
    let broadcaster = FrameBroadcaster()
    let inputs = Mutex<ScreenInputQueue?>(nil)
    let bound = Mutex<Result<Int, any Error>?>(nil)
    let ready = DispatchSemaphore(value: 0)
  }

  /// A renderer that will listen on `host`:`port` (0 picks a free port) once started; pages
  /// must present `accessKey`. `onListening` gets the page's URL, key included. `display`
  /// sets the page's reduced motion, contrast and title size (the page also follows the
  /// browser's `prefers-reduced-motion` and `prefers-contrast`).
  public init(
    host: String, port: Int, accessKey: WebAccessKey, logger: Logger,
    display: DisplayOptions = .standard, phone: PhoneRemotes? = nil,
    onListening: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.display = display
    self.host = host
    self.port = port
    self.accessKey = accessKey
    self.logger = logger
    self.onListening = onListening
    self.phone = phone
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
    let router = Router()
    let page = WebPage.html(for: display)
    router.get("/") { _, _ -> Response in
      Response(
        status: .ok,
        headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
        body: .init(byteBuffer: ByteBuffer(string: page)))
    }
    let webSocketRouter = Router(context: BasicWebSocketRequestContext.self)
    if let phone {
      Self.addPhoneRoutes(router: router, webSocketRouter: webSocketRouter, phone, logger: logger)
    }
    let accessKey = accessKey
    webSocketRouter.ws(
      "/ws",
      shouldUpgrade: { request, _ in
        guard let key = request.uri.queryParameters.get("key"), accessKey.matches(key) else {
          logger.notice("page refused: missing or wrong key")
          throw HTTPError(
            .forbidden, message: "missing or wrong key: open the URL tenfoot-screen printed")
        }
        return .upgrade([:])
      }
    ) { inbound, outbound, _ in
      try await Self.serve(inbound: inbound, outbound: outbound, shared: shared, logger: logger)
    }
    let application = Application(
      router: router,
      server: .http1WebSocketUpgrade(webSocketRouter: webSocketRouter),
      configuration: .init(address: .hostname(host, port: port), serverName: "tenfoot-screen"),
      onServerRunning: { channel in
        shared.bound.withLock { $0 = .success(channel.localAddress?.port ?? 0) }
        shared.ready.signal()
      },
      logger: logger)
    let finished = finished
    server = Task.detached {
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
      phone?.listening(host: host, port: port) { shared.broadcaster.publishPhone($0) }
      onListening(
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/?key=\(accessKey.hex)")
    case .failure(let error):
      throw ScreenError.webServerCannotListen(host: host, port: port, cause: error)
    }
  }

  /// Encodes the frame (and the layout when it changed) and hands it to every page.
  public func render(_ frame: ScreenFrame) throws {
    if frame.layout != lastLayout {
      layoutJSON = try WebMessages.layout(frame.layout)
      layoutVersion += 1
      lastLayout = frame.layout
    }
    shared.broadcaster.publish(
      .init(layoutVersion: layoutVersion, layout: layoutJSON, frame: try WebMessages.frame(frame)))
  }

  /// Shows the pairing PIN over the page (or hides it, with nil) on every connected page.
  public func showPairing(_ overlay: PairingOverlay?) throws {
    shared.broadcaster.publishPairing(try WebMessages.pairing(overlay))
    phone?.prompts.post(overlay)
  }

  /// Never needs waking: the server has its own threads.
  public var wakeFileDescriptor: Int32? { nil }

  /// Never called.
  public func handleWake() throws {}

  /// Stops the server (bounded: 5 s) and closes every page's stream.
  public func stop() {
    guard let server else { return }
    self.server = nil
    phone?.stop()
    shared.broadcaster.finishAll()
    server.cancel()
    if finished.wait(timeout: .now() + 5) == .timedOut {
      logger.warning("web server did not stop within 5 s")
    }
  }

  /// One page's connection: frames out, remote input in, until either side ends.
  private static func serve(
    inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, shared: Shared,
    logger: Logger
  ) async throws {
    let updates = shared.broadcaster.subscribe()
    logger.info("page connected")
    defer { logger.info("page disconnected") }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        var sentVersion: Int?
        var sentPairing = 0
        var sentPhone = 0
        for await update in updates {
          if update.layoutVersion != sentVersion {
            try await outbound.write(.text("{\"layout\":\(update.layout)}"))
            sentVersion = update.layoutVersion
          }
          try await outbound.write(.text("{\"frame\":\(update.frame)}"))
          if update.pairingVersion != sentPairing {
            try await outbound.write(.text("{\"pairing\":\(update.pairing)}"))
            sentPairing = update.pairingVersion
          }
          if update.phoneVersion != sentPhone {
            try await outbound.write(.text("{\"phoneCode\":\(update.phone)}"))
            sentPhone = update.phoneVersion
          }
        }
      }
      group.addTask {
        var input = PageInput()
        for try await message in inbound.messages(maxSize: 64 * 1024) {
          guard case .text(let text) = message else { continue }
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

extension WebRenderer {
  /// The phone remote's routes: `GET /phone` (the remote-only page, or a page saying why the
  /// code does not work) and its WebSocket `/phone/ws`, which uses the code's token up.
  fileprivate static func addPhoneRoutes(
    router: Router<BasicRequestContext>,
    webSocketRouter: Router<BasicWebSocketRequestContext>, _ phone: PhoneRemotes, logger: Logger
  ) {
    router.get("/phone") { request, _ -> Response in
      let query = request.uri.queryParameters
      let refusal = phone.admits(
        token: query.get("token"), session: query.get("session"))
      let page = refusal.map { PhonePage.refused($0.description) } ?? PhonePage.html
      return Response(
        status: refusal == nil ? .ok : .forbidden,
        headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
        body: .init(byteBuffer: ByteBuffer(string: page)))
    }
    webSocketRouter.ws("/phone/ws") { inbound, outbound, context in
      let query = context.request.uri.queryParameters
      let session: PhoneSession
      switch phone.session(token: query.get("token"), secret: query.get("session")) {
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
              .text(WebMessages.phoneStatus(status, name: session.name, secret: session.secret)))
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
}
