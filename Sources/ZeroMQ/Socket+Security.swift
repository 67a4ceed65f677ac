import CZeroMQ

/// Receiving with the ZAP identity, and socket monitoring for handshake failures.
extension Socket {
  /// Receives every frame of one message together with the `User-Id` property a ZAP handler
  /// gave the connection it arrived on (nil without ZAP), or nil if `dontWait` is set and
  /// nothing is queued. The property is read from the first frame before it is released.
  public func receiveMultipartWithUserID(dontWait: Bool = false) throws(ZeroMQError) -> (
    frames: [[UInt8]], userID: String?
  )? {
    let message = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: 1)
    defer { message.deallocate() }
    guard zmq_msg_init(message) == 0 else { throw ZeroMQError.last("zmq_msg_init") }
    defer { zmq_msg_close(message) }
    let flags: Int32 = dontWait ? ZMQ_DONTWAIT : 0
    while true {
      if zmq_msg_recv(message, handle, flags) >= 0 { break }
      let error = zmq_errno()
      if error == EINTR { continue }
      if error == EAGAIN { return nil }
      throw ZeroMQError(errno: error, operation: "zmq_msg_recv")
    }
    let userID = zmq_msg_gets(message, "User-Id").map { String(cString: $0) }
    let size = zmq_msg_size(message)
    var frames: [[UInt8]] = [
      size > 0 && zmq_msg_data(message) != nil
        ? [UInt8](UnsafeRawBufferPointer(start: zmq_msg_data(message), count: size)) : []
    ]
    while try hasMore {
      guard let next = try receive() else { break }
      frames.append(next)
    }
    return (frames, userID)
  }

  /// Publishes this socket's events on a PAIR socket at `endpoint` (`inproc://…`), for a
  /// `SocketMonitor` to read (`zmq_socket_monitor`).
  public func monitor(_ endpoint: String, events: Int32) throws(ZeroMQError) {
    guard zmq_socket_monitor(handle, endpoint, events) == 0 else {
      throw ZeroMQError.last("zmq_socket_monitor(\(endpoint))")
    }
  }
}

/// Z85 text for binary keys (`zmq_z85_encode`); CURVE keys are 32 bytes, 40 characters.
public enum Z85 {
  /// Encodes bytes whose count is a multiple of 4; nil otherwise.
  public static func encode(_ bytes: [UInt8]) -> String? {
    guard bytes.count % 4 == 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: bytes.count * 5 / 4 + 1)
    guard zmq_z85_encode(&buffer, bytes, bytes.count) != nil else { return nil }
    return String(
      decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Decodes Z85 text whose length is a multiple of 5; nil if it is not valid Z85.
  public static func decode(_ text: String) -> [UInt8]? {
    let characters = Array(text.utf8)
    guard characters.count % 5 == 0, characters.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      return nil
    }
    var bytes = [UInt8](repeating: 0, count: characters.count * 4 / 5)
    let ok = text.withCString { zmq_z85_decode(&bytes, $0) != nil }
    return ok ? bytes : nil
  }
}
