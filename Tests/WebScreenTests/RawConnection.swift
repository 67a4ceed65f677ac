import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A plain TCP connection to the page server on 127.0.0.1, for requests a browser would not
/// make: headers sent slowly, a socket held open without a request, an upgrade from a foreign
/// origin. Every read has a deadline; the waiting ones run on a thread of their own
/// (`offPool`), never on one of Swift concurrency's few threads, which the server's request
/// tasks need.
final class RawConnection: Sendable {
  private let descriptor: Int32

  /// Connects to 127.0.0.1:`port` from `source` (another loopback address stands for
  /// another client).
  init(port: Int, from source: String = "127.0.0.1") throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw RawError("socket: errno \(errno)") }
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      let error = errno
      close(descriptor)
      throw RawError("bind \(source): errno \(error)")
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let error = errno
      close(descriptor)
      throw RawError("connect: errno \(error)")
    }
  }

  deinit { close(descriptor) }

  /// Shuts the connection down both ways (the server sees it end).
  func shutdown() {
    _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
  }

  /// Waits up to `timeout` until `count` of `connections` are closed by the server; the
  /// indices of those closed by then.
  static func closed(_ connections: [RawConnection], count: Int, timeout: Duration) -> Set<Int> {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var closed: Set<Int> = []
    while closed.count < count && clock.now < deadline {
      var pollers = connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
      let left = deadline - clock.now
      let milliseconds = Int32(left.components.seconds * 1000 + 1)
      guard poll(&pollers, nfds_t(pollers.count), milliseconds) > 0 else { break }
      for (index, poller) in pollers.enumerated() where poller.revents != 0 {
        if connections[index].read(timeout: .zero) == .closed { closed.insert(index) }
      }
    }
    return closed
  }

  /// Sends `text` whole.
  func send(_ text: String) throws {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
      guard sent > 0 else { throw RawError("send: errno \(errno)") }
      bytes = bytes.dropFirst(sent)
    }
  }

  /// Sends `bytes` whole, without SIGPIPE; false when the server closed the connection first.
  func send(bytes: [UInt8]) -> Bool {
    var rest = bytes[...]
    while !rest.isEmpty {
      let sent = rest.withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { return false }
      rest = rest.dropFirst(sent)
    }
    return true
  }

  /// What the next read brings within `timeout`: bytes, the server's close (EOF or reset),
  /// or nothing yet.
  enum Read: Equatable {
    case bytes([UInt8])
    case closed
    case nothing
  }

  /// Waits up to `timeout` for bytes or the server's close.
  func read(timeout: Duration) -> Read {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let milliseconds =
      Int32(timeout.components.seconds * 1000)
      + Int32(timeout.components.attoseconds / 1_000_000_000_000_000)
    var ready = poll(&poller, 1, milliseconds)
    while ready < 0 && errno == EINTR { ready = poll(&poller, 1, milliseconds) }
    guard ready > 0 else { return .nothing }
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    return count > 0 ? .bytes(Array(buffer.prefix(count))) : .closed
  }

  /// Waits up to `timeout` for the server to close the connection, reading past any bytes;
  /// the time it took, or nil when it stayed open.
  func waitForClose(timeout: Duration) -> Duration? {
    let clock = ContinuousClock()
    let start = clock.now
    while clock.now - start < timeout {
      switch read(timeout: timeout - (clock.now - start)) {
      case .closed: return clock.now - start
      case .bytes: continue
      case .nothing: return nil
      }
    }
    return nil
  }

  /// A whole response's head and the body bytes read with it (within `timeout`).
  func response(timeout: Duration = .seconds(5)) throws -> RawResponse {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var received: [UInt8] = []
    while clock.now < deadline {
      let next = read(timeout: deadline - clock.now)
      if case .bytes(let bytes) = next { received += bytes }
      if let response = RawResponse(bytes: received), response.isComplete {
        return response
      }
      if next == .closed {
        throw RawError(
          "the server closed the connection before a whole response: "
            + String(decoding: received, as: UTF8.self))
      }
    }
    throw RawError(
      "no whole response within \(timeout): \(String(decoding: received, as: UTF8.self))")
  }
}

/// A response as text: its status, headers (names lowercased) and body (also as bytes, for
/// images).
struct RawResponse {
  let status: Int
  let headers: [String: String]
  let body: String
  let bodyBytes: [UInt8]

  /// Parses `text`, or nil before its head is complete.
  init?(_ text: String) {
    self.init(bytes: Array(text.utf8))
  }

  /// Parses `bytes`, or nil before its head is complete.
  init?(bytes: [UInt8]) {
    let separator: [UInt8] = [13, 10, 13, 10]
    guard
      let split = bytes.indices.dropLast(3).first(where: {
        Array(bytes[$0..<$0 + 4]) == separator
      })
    else { return nil }
    let lines = String(decoding: bytes[..<split], as: UTF8.self).components(separatedBy: "\r\n")
    guard let first = lines.first, let code = first.split(separator: " ").dropFirst().first,
      let status = Int(code)
    else { return nil }
    self.status = status
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    self.headers = headers
    bodyBytes = Array(bytes[(split + 4)...])
    body = String(decoding: bodyBytes, as: UTF8.self)
  }

  /// Whether the body is all there (by Content-Length; a response without one has no body
  /// here, as for 101).
  var isComplete: Bool {
    guard let length = headers["content-length"].flatMap(Int.init) else { return true }
    return bodyBytes.count >= length
  }
}

/// Runs the blocking `work` on a thread of its own and waits for it without holding a thread
/// of Swift concurrency's pool (on a 2-core machine it has two, and the server's tasks and
/// other tests need them).
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// A raw socket call failed.
struct RawError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
