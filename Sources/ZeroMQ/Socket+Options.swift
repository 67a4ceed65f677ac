import CZeroMQ

/// Socket options TenFoot sets on purpose. Each is a thin `zmq_setsockopt` call.
extension Socket {
  func setOption(_ option: Int32, _ value: Int32, _ name: String) throws(ZeroMQError) {
    var value = value
    guard zmq_setsockopt(handle, option, &value, MemoryLayout<Int32>.size) == 0 else {
      throw ZeroMQError.last("zmq_setsockopt(\(name))")
    }
  }

  func setOption(_ option: Int32, _ value: Int64, _ name: String) throws(ZeroMQError) {
    var value = value
    guard zmq_setsockopt(handle, option, &value, MemoryLayout<Int64>.size) == 0 else {
      throw ZeroMQError.last("zmq_setsockopt(\(name))")
    }
  }

  func setOption(_ option: Int32, bytes: [UInt8], _ name: String) throws(ZeroMQError) {
    let status = bytes.withUnsafeBytes { zmq_setsockopt(handle, option, $0.baseAddress, $0.count) }
    guard status == 0 else { throw ZeroMQError.last("zmq_setsockopt(\(name))") }
  }

  func intOption(_ option: Int32, _ name: String) throws(ZeroMQError) -> Int32 {
    var value: Int32 = 0
    var size = MemoryLayout<Int32>.size
    guard zmq_getsockopt(handle, option, &value, &size) == 0 else {
      throw ZeroMQError.last("zmq_getsockopt(\(name))")
    }
    return value
  }

  func stringOption(_ option: Int32, _ name: String) throws(ZeroMQError) -> String {
    var buffer = [CChar](repeating: 0, count: 1024)
    var size = buffer.count
    guard zmq_getsockopt(handle, option, &buffer, &size) == 0 else {
      throw ZeroMQError.last("zmq_getsockopt(\(name))")
    }
    return String(
      decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) },
      as: UTF8.self)
  }

  /// Milliseconds a closed socket keeps unsent messages (`ZMQ_LINGER`; TenFoot uses 0).
  public func setLinger(milliseconds: Int32) throws(ZeroMQError) {
    try setOption(ZMQ_LINGER, milliseconds, "ZMQ_LINGER")
  }

  /// Outbound high-water mark in messages (`ZMQ_SNDHWM`); PUB drops beyond it.
  public func setSendHighWaterMark(_ messages: Int32) throws(ZeroMQError) {
    try setOption(ZMQ_SNDHWM, messages, "ZMQ_SNDHWM")
  }

  /// Inbound high-water mark in messages (`ZMQ_RCVHWM`).
  public func setReceiveHighWaterMark(_ messages: Int32) throws(ZeroMQError) {
    try setOption(ZMQ_RCVHWM, messages, "ZMQ_RCVHWM")
  }

  /// Largest inbound message in bytes (`ZMQ_MAXMSGSIZE`); a peer that sends more is
  /// disconnected by libzmq.
  public func setMaxMessageSize(_ bytes: Int64) throws(ZeroMQError) {
    try setOption(ZMQ_MAXMSGSIZE, bytes, "ZMQ_MAXMSGSIZE")
  }

  /// ZMTP heartbeats: ping every `interval` ms, drop the connection after `timeout` ms of
  /// silence, and ask the peer to use `ttl` ms (`ZMQ_HEARTBEAT_IVL/TIMEOUT/TTL`).
  public func setHeartbeat(
    intervalMilliseconds interval: Int32, timeoutMilliseconds timeout: Int32,
    ttlMilliseconds ttl: Int32? = nil
  ) throws(ZeroMQError) {
    try setOption(ZMQ_HEARTBEAT_IVL, interval, "ZMQ_HEARTBEAT_IVL")
    try setOption(ZMQ_HEARTBEAT_TIMEOUT, timeout, "ZMQ_HEARTBEAT_TIMEOUT")
    try setOption(ZMQ_HEARTBEAT_TTL, ttl ?? timeout, "ZMQ_HEARTBEAT_TTL")
  }

  /// Reconnect interval and its exponential-backoff ceiling in ms (`ZMQ_RECONNECT_IVL[_MAX]`).
  public func setReconnectInterval(milliseconds: Int32, maxMilliseconds: Int32 = 0)
    throws(ZeroMQError)
  {
    try setOption(ZMQ_RECONNECT_IVL, milliseconds, "ZMQ_RECONNECT_IVL")
    try setOption(ZMQ_RECONNECT_IVL_MAX, maxMilliseconds, "ZMQ_RECONNECT_IVL_MAX")
  }

  /// The identity a ROUTER peer sees for this socket (`ZMQ_ROUTING_ID`), set before connect.
  public func setRoutingID(_ id: [UInt8]) throws(ZeroMQError) {
    try setOption(ZMQ_ROUTING_ID, bytes: id, "ZMQ_ROUTING_ID")
  }

  /// ROUTER: fail with `EHOSTUNREACH` instead of dropping a message to an unknown peer.
  public func setRouterMandatory(_ on: Bool) throws(ZeroMQError) {
    try setOption(ZMQ_ROUTER_MANDATORY, Int32(on ? 1 : 0), "ZMQ_ROUTER_MANDATORY")
  }

  /// ROUTER: a new connection with an identity in use takes it over (`ZMQ_ROUTER_HANDOVER`).
  public func setRouterHandover(_ on: Bool) throws(ZeroMQError) {
    try setOption(ZMQ_ROUTER_HANDOVER, Int32(on ? 1 : 0), "ZMQ_ROUTER_HANDOVER")
  }

  /// Queue messages only to completed connections (`ZMQ_IMMEDIATE`), so nothing piles up for
  /// a peer that is not there.
  public func setImmediate(_ on: Bool) throws(ZeroMQError) {
    try setOption(ZMQ_IMMEDIATE, Int32(on ? 1 : 0), "ZMQ_IMMEDIATE")
  }

  /// SUB: receive messages whose first frame starts with `prefix` (empty = everything).
  public func subscribe(_ prefix: String) throws(ZeroMQError) {
    try setOption(ZMQ_SUBSCRIBE, bytes: Array(prefix.utf8), "ZMQ_SUBSCRIBE")
  }

  /// SUB: stop receiving a prefix subscribed earlier.
  public func unsubscribe(_ prefix: String) throws(ZeroMQError) {
    try setOption(ZMQ_UNSUBSCRIBE, bytes: Array(prefix.utf8), "ZMQ_UNSUBSCRIBE")
  }

  /// Send timeout in ms for blocking sends (`ZMQ_SNDTIMEO`, -1 = forever).
  public func setSendTimeout(milliseconds: Int32) throws(ZeroMQError) {
    try setOption(ZMQ_SNDTIMEO, milliseconds, "ZMQ_SNDTIMEO")
  }

  /// Receive timeout in ms for blocking receives (`ZMQ_RCVTIMEO`, -1 = forever).
  public func setReceiveTimeout(milliseconds: Int32) throws(ZeroMQError) {
    try setOption(ZMQ_RCVTIMEO, milliseconds, "ZMQ_RCVTIMEO")
  }

  /// Makes this socket a CURVE server with its secret key (Z85, 40 characters).
  public func setCurveServer(secretKey: String) throws(ZeroMQError) {
    try setOption(ZMQ_CURVE_SERVER, Int32(1), "ZMQ_CURVE_SERVER")
    try setOption(ZMQ_CURVE_SECRETKEY, bytes: Array(secretKey.utf8), "ZMQ_CURVE_SECRETKEY")
  }

  /// Makes this socket a CURVE client of `serverKey` with its own key pair (Z85 keys).
  public func setCurveClient(serverKey: String, keyPair: CurveKeyPair) throws(ZeroMQError) {
    try setOption(ZMQ_CURVE_SERVERKEY, bytes: Array(serverKey.utf8), "ZMQ_CURVE_SERVERKEY")
    try setOption(ZMQ_CURVE_PUBLICKEY, bytes: Array(keyPair.publicKey.utf8), "ZMQ_CURVE_PUBLICKEY")
    try setOption(ZMQ_CURVE_SECRETKEY, bytes: Array(keyPair.secretKey.utf8), "ZMQ_CURVE_SECRETKEY")
  }

  /// The ZAP domain this socket authenticates in (`ZMQ_ZAP_DOMAIN`).
  public func setZapDomain(_ domain: String) throws(ZeroMQError) {
    try setOption(ZMQ_ZAP_DOMAIN, bytes: Array(domain.utf8), "ZMQ_ZAP_DOMAIN")
  }

  /// Pending events (`ZMQ_EVENTS`): whether a receive or a send would succeed now.
  public var events: (readable: Bool, writable: Bool) {
    get throws(ZeroMQError) {
      let value = try intOption(ZMQ_EVENTS, "ZMQ_EVENTS")
      return (value & Int32(ZMQ_POLLIN) != 0, value & Int32(ZMQ_POLLOUT) != 0)
    }
  }
}
