import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the web screen's WebSockets: Hummingbird's basic one, plus the
/// event loop of the connection's channel, so a page's frames can be written from the thread
/// that owns its socket (`EventLoopExecutor`).
public struct PageSocketContext: RequestContext, WebSocketRequestContext {
  /// Hummingbird's per-request storage.
  public var coreContext: CoreRequestContextStorage
  /// The WebSocket handler the router chose.
  public let webSocket: WebSocketHandlerReference<Self>
  /// The event loop that owns the connection's socket.
  public let eventLoop: any EventLoop

  /// The context of a request that arrived on `source`'s channel.
  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    webSocket = .init()
    eventLoop = source.channel.eventLoop
  }
}
