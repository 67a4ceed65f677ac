import CZeroMQ
import SystemCalls

/// Receiving with the ZAP identity, and socket monitoring for handshake failures.
extension Socket {
  /// Receives every frame of one message together with the `User-Id` property a ZAP handler
  /// gave the connection it arrived on (nil without ZAP), or nil if `dontWait` is set and
  /// nothing is queued. A ROUTER's routing-id frame carries no metadata, so the second frame is
  /// asked (the first when it is alone); it is read before its message is released.
  ///
  /// `keep` (by default, everything is kept) sees the first frame (a ROUTER's peer identity)
  /// and the `User-Id` once the second frame has arrived, and may refuse the rest: then the
  /// remaining frames are consumed without being copied and only the first is returned, with
  /// `kept` false (cheap dropping for flood control), and `source` names the connection it came
  /// on (`MessageSource`, so a flooding peer can be cut). `bytes` counts every frame after the
  /// first, kept or not. `keep` does not escape: as an optional closure it did, and its context
  /// was allocated on every call, the empty read that ends each drain included.
  public func receiveMultipartWithUserID(
    dontWait: Bool = false, peerAddress: Bool = false,
    keep: (_ routingID: [UInt8], _ userID: String?) -> Bool = { _, _ in true }
  ) throws(ZeroMQError) -> ReceivedWithUserID? {
    var frames: [[UInt8]] = []
    var bytes = 0
    var source: MessageSource?
    var userID: String?
    var address: String?
    var more = true
    var kept = true
    var index = 0  // Of the frame being read.
    while more {
      guard zmq_msg_init(message) == 0 else { throw ZeroMQError.last("zmq_msg_init") }
      defer { zmq_msg_close(message) }
      // Only the first frame may be absent; the rest of a message is already here.
      let flags: Int32 = dontWait && frames.isEmpty ? ZMQ_DONTWAIT : 0
      if SystemCall.retryingInterrupts({ zmq_msg_recv(message, handle, flags) }) < 0 {
        let error = zmq_errno()
        if error == EAGAIN && frames.isEmpty {
          if dontWait { operations.drained() }
          return nil
        }
        throw ZeroMQError(errno: error, operation: "zmq_msg_recv")
      }
      // A ROUTER's routing id and one envelope, the common message; reserved only once a
      // message came (every drain ends on an empty read, which allocated it for nothing).
      if frames.isEmpty { frames.reserveCapacity(2) }
      more = zmq_msg_more(message) != 0
      // The property is on every frame of a message but a ROUTER's routing id: one ask finds
      // it, on the second frame, or on the first when it is the only one (each ask is a
      // metadata lookup, about 190 instructions; asking the routing id too was one per press).
      if index == 1 || (index == 0 && !more), let value = zmq_msg_gets(message, "User-Id") {
        userID = String(cString: value)
      }
      if peerAddress, address == nil, let value = zmq_msg_gets(message, "Peer-Address") {
        address = String(cString: value)
      }
      index += 1
      // Decided on the second frame, before it is copied: the routing-id frame carries no
      // metadata, the second one names the key (so a budget can be per key).
      let size = zmq_msg_size(message)
      if !frames.isEmpty { bytes += size }
      if frames.count == 1, kept, !keep(frames[0], userID) {
        kept = false
        source = MessageSource(message)
      }
      guard kept else { continue }
      if size > 0, let data = zmq_msg_data(message) {
        frames.append([UInt8](UnsafeRawBufferPointer(start: data, count: size)))
      } else {
        frames.append([])
      }
    }
    return ReceivedWithUserID(
      frames: frames, userID: userID, kept: kept, address: address, bytes: bytes, source: source)
  }

  /// Stops `monitor`. Call it before closing the reading side: libzmq sends monitor events
  /// with a blocking send from its I/O thread, so events for a reader that is gone would hang
  /// every connection of the context.
  public func stopMonitor() throws(ZeroMQError) {
    guard zmq_socket_monitor(handle, nil, 0) == 0 else {
      throw ZeroMQError.last("zmq_socket_monitor(stop)")
    }
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
