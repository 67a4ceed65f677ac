import CZeroMQ

#if canImport(Glibc)
  import Glibc
#endif

/// A message received with its ZAP identity (`Socket.receiveMultipartWithUserID`).
public struct ReceivedWithUserID {
  /// The frames: all of them, or only the first (a ROUTER's routing id) when not `kept`.
  public var frames: [[UInt8]]
  /// The `User-Id` the ZAP handler gave the connection (nil without ZAP).
  public var userID: String?
  /// Whether the caller's `keep` let the message be read (else its frames were dropped).
  public var kept: Bool
  /// The peer's address (`Peer-Address`), when asked for.
  public var address: String?
  /// The size of every frame after the first, kept or not.
  public var bytes: Int
  /// The connection a message not kept came on, to cut it (`MessageSource.cut`).
  public var source: MessageSource?
}

/// The connection a message came on, as libzmq's I/O thread holds it: the descriptor of its TCP
/// or Unix socket (`ZMQ_SRCFD`) and the peer address libzmq recorded at connection.
///
/// libzmq has no call that drops one peer of a ROUTER. `cut()` shuts the descriptor down
/// (`shutdown(SHUT_RDWR)`, not `close`: libzmq owns it): its I/O thread reads end-of-file,
/// drops the session and closes the descriptor itself, and the peer's side sees the connection
/// end (and reconnects, through ZAP again).
public struct MessageSource: Sendable, Equatable {
  /// The connection's socket descriptor, owned by libzmq.
  public var fileDescriptor: Int32
  /// libzmq's `Peer-Address` of the connection ("" if none): the IP address for TCP; for
  /// ipc, the host name glibc gives a Unix socket followed by `:uid:gid:pid` of the peer.
  public var peerAddress: String

  /// A source.
  public init(fileDescriptor: Int32, peerAddress: String) {
    self.fileDescriptor = fileDescriptor
    self.peerAddress = peerAddress
  }

  /// The source of the message in `message`, or nil if it has none (inproc).
  init?(_ message: UnsafeMutablePointer<zmq_msg_t>) {
    let descriptor = zmq_msg_get(message, ZMQ_SRCFD)
    guard descriptor >= 0 else { return nil }
    fileDescriptor = descriptor
    peerAddress = zmq_msg_gets(message, "Peer-Address").map { String(cString: $0) } ?? ""
  }

  /// Cuts the connection: shuts its descriptor down if it still leads to the same peer address
  /// (a message read after its connection ended names a descriptor the system may have given a
  /// new connection since). Returns whether it was shut down.
  @discardableResult
  public func cut() -> Bool {
    guard Self.peerAddress(of: fileDescriptor) == peerAddress else { return false }
    return shutdown(fileDescriptor, Int32(SHUT_RDWR)) == 0
  }

  /// The peer address of socket `descriptor` in libzmq's form, or nil if it is not a connected
  /// socket.
  static func peerAddress(of descriptor: Int32) -> String? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let named = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getpeername(descriptor, $0, &length)
      }
    }
    guard named == 0 else { return nil }
    var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
    let resolved = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
      }
    }
    guard resolved == 0 else { return nil }
    let address = String(
      decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard Int32(storage.ss_family) == AF_UNIX else { return address }
    return unixCredentials(of: descriptor).map { address + $0 }
  }

  /// `:uid:gid:pid` of a Unix socket's peer (`SO_PEERCRED`), as libzmq appends it.
  private static func unixCredentials(of descriptor: Int32) -> String? {
    // `struct ucred` (pid, uid, gid), which Glibc's module leaves out without _GNU_SOURCE.
    var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
    var length = socklen_t(MemoryLayout.size(ofValue: credentials))
    guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
      return nil
    }
    return ":\(credentials.uid):\(credentials.gid):\(credentials.pid)"
  }
}
