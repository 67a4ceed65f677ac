import NIOCore
import NIOHTTP1

/// Watches a connection's first request before Hummingbird's WebSocket upgrader does.
///
/// - **Header timeout.** The connection is closed when the first request's headers have not
///   all arrived `headerTimeout` after it was accepted. (Hummingbird's idle timeout only
///   starts once a first request has been read; it covers kept-alive connections after it.)
/// - **Refused upgrades.** A WebSocket request that `admission` refuses loses its `Upgrade`
///   header, so it goes on as a plain GET and the router answers it 403 with the reason. (The
///   upgrader answers every refused upgrade 400 without a body.) Later requests on a
///   kept-alive connection cannot upgrade: Hummingbird redirects them to a fresh connection,
///   whose first request comes here.
///
/// Sits between the HTTP/1 decoder and the upgrader, and leaves the pipeline after the first
/// request's head.
final class FirstRequestGate: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart

  private let admission: WebSocketAdmission
  private let headerTimeout: TimeAmount
  private let onTimeout: () -> Void
  private var timer: Scheduled<Void>?

  /// A gate; `onTimeout` runs (on the channel's loop) when it closes a slow connection.
  init(
    admission: WebSocketAdmission, headerTimeout: TimeAmount,
    onTimeout: @escaping () -> Void
  ) {
    self.admission = admission
    self.headerTimeout = headerTimeout
    self.onTimeout = onTimeout
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let onTimeout = onTimeout
    timer = context.eventLoop.assumeIsolated().scheduleTask(in: headerTimeout) {
      onTimeout()
      // Told as the client's end of input, the upgrader (next in the pipeline) closes the
      // connection and ends its wait quietly; a bare close would make Hummingbird log an
      // error for every slow client.
      context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
      context.close(promise: nil)
    }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    timer?.cancel()
    timer = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .head(var head) = unwrapInboundIn(data) else {
      context.fireChannelRead(data)
      return
    }
    timer?.cancel()
    timer = nil
    let upgrade = head.headers["upgrade"].contains { $0.lowercased().contains("websocket") }
    if upgrade,
      admission.refusal(
        uri: head.uri, host: head.headers.first(name: "host"),
        origin: head.headers.first(name: "origin")) != nil
    {
      head.headers.remove(name: "upgrade")
      head.headers.remove(name: "connection")
      context.fireChannelRead(wrapInboundOut(.head(head)))
    } else {
      context.fireChannelRead(data)
    }
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }
}
