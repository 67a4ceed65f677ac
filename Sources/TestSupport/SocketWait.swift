import Foundation
import ZeroMQ

/// Bounded waits on real sockets for tests: a message, or a monitor event.
public enum SocketWait {
  /// The next message on `socket` within `seconds`, or nil.
  public static func message(on socket: Socket, within seconds: Double) throws -> [[UInt8]]? {
    let deadline = ContinuousClock.now + .seconds(seconds)
    repeat {
      if let frames = try socket.receiveMultipart(dontWait: true) { return frames }
    } while try socket.awaitInput(until: deadline)
    return nil
  }

  /// Reads `monitor` until `event` (a `SocketEvent` value) comes, skipping others; throws
  /// `ChildProcessError` naming `what` after `seconds`.
  public static func event(
    _ event: Int32, on monitor: SocketMonitor, within seconds: Double, _ what: String
  ) throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    repeat {
      while let next = try monitor.next() {
        if next.event == event { return }
      }
    } while try monitor.socket.awaitInput(until: deadline)
    throw ChildProcessError(description: "no \(what) within \(seconds) s")
  }
}
