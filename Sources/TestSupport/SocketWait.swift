import Foundation
import ZeroMQ

/// Bounded waits on real sockets for tests: a message, or a monitor event.
public enum SocketWait {
  /// The next message on `socket` within `seconds`, or nil.
  public static func message(on socket: Socket, within seconds: Double) throws -> [[UInt8]]? {
    let deadline = Date(timeIntervalSinceNow: seconds)
    var poller = Poller()
    poller.add(socket)
    while true {
      if let frames = try socket.receiveMultipart(dontWait: true) { return frames }
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return nil }
      try poller.poll(timeoutMilliseconds: Int(left * 1000) + 1)
    }
  }

  /// Reads `monitor` until `event` (a `SocketEvent` value) comes, skipping others; throws
  /// `ChildProcessError` naming `what` after `seconds`.
  public static func event(
    _ event: Int32, on monitor: SocketMonitor, within seconds: Double, _ what: String
  ) throws {
    let deadline = Date(timeIntervalSinceNow: seconds)
    var poller = Poller()
    poller.add(monitor.socket)
    while true {
      while let next = try monitor.next() {
        if next.event == event { return }
      }
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else {
        throw ChildProcessError(description: "no \(what) within \(seconds) s")
      }
      try poller.poll(timeoutMilliseconds: Int(left * 1000) + 1)
    }
  }
}
