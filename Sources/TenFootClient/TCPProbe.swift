import Foundation
import TenFootProtocol

#if canImport(Glibc)
  import Glibc
#endif

/// Whether anything listens at a `tcp://HOST:PORT` endpoint, asked with one plain TCP connect:
/// lets a client that cannot even start its secure handshake (no broker key known) say
/// "nothing is listening there" instead of guessing "not paired". Hand-written because libzmq
/// retries refused connects silently and Foundation has no client socket API on Linux.
public enum TCPProbe {
  /// True if the connection to `endpoint` (its first broker, for a zone's list) was refused
  /// within `timeout`; false if something accepted it, or it could not be told.
  public static func refused(_ endpoint: String, timeout: Duration = .seconds(1)) -> Bool {
    guard let first = Endpoints.list(endpoint).first, first.hasPrefix("tcp://"),
      let colon = first.lastIndex(of: ":")
    else { return false }
    let host = String(first.dropFirst("tcp://".count)[..<colon])
      .trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    let port = String(first[first.index(after: colon)...])
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, port, &hints, &list) == 0, let info = list else { return false }
    defer { freeaddrinfo(list) }
    let fd = socket(
      info.pointee.ai_family,
      Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return false }
    if errno == ECONNREFUSED { return true }
    guard errno == EINPROGRESS else { return false }
    var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    let milliseconds = Int32(clamping: Int((timeout / .milliseconds(1)).rounded(.up)))
    guard poll(&descriptor, 1, milliseconds) == 1 else { return false }
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return false }
    return error == ECONNREFUSED
  }
}
