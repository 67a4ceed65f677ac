import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 + WebSocket child channel behind the page server's guards: the
/// connection cap (a connection over it is closed at once, before any HTTP handler exists)
/// and a `FirstRequestGate` (the header timeout and refused upgrades answered 403).
struct GuardedChannel: ServerChildChannel {
  /// A connection let in (`base` set) or closed at the cap (`base` nil).
  struct Value: ServerChildChannelValue {
    let channel: any Channel
    let base: HTTP1WebSocketUpgradeChannel.Value?
  }

  let base: HTTP1WebSocketUpgradeChannel
  let census: ConnectionCensus
  let admission: WebSocketAdmission
  /// Logged (throttled) for connections closed at the cap, and for slow headers.
  let overCap: ThrottledNotice
  let slowHeaders: ThrottledNotice

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let address = channel.remoteAddress?.ipAddress ?? "unknown"
    guard census.admit(address) else {
      overCap.happened([
        "limit": "\(census.limits.maxConnections)",
        "limit.per.address": "\(census.limits.maxConnectionsPerAddress)",
      ])
      channel.close(promise: nil)
      return channel.eventLoop.makeSucceededFuture(Value(channel: channel, base: nil))
    }
    let census = census
    channel.closeFuture.whenComplete { _ in census.leave(address) }
    let admission = admission
    let headerTimeout = TimeAmount(census.limits.headerTimeout)
    let slowHeaders = slowHeaders
    return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
      let pipeline = channel.pipeline.syncOperations
      let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
      let gate = FirstRequestGate(
        admission: admission, headerTimeout: headerTimeout,
        onTimeout: { slowHeaders.happened(["timeout": "\(census.limits.headerTimeout)"]) })
      try pipeline.addHandler(gate, position: .after(decoder))
      return Value(channel: channel, base: value)
    }
  }

  func handle(value: Value, logger: Logger) async {
    guard let base = value.base else { return }
    await self.base.handle(value: base, logger: logger)
  }
}
