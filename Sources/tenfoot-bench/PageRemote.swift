import Foundation
import TenFootClient
import TenFootProtocol
import TestSupport
import ZeroMQ

/// How the page benchmark presses a TenFoot screen's keys.
protocol PageRemote: AnyObject {
  /// Sends the press of `key` (from here its time runs).
  func press(_ key: Tenfoot_V1_Key) throws
  /// After the press was seen in the page: whatever finishes it (its release), so the next
  /// path's press starts from a quiet system. Not timed.
  func finish(_ key: Tenfoot_V1_Key) throws
}

/// A remote connection in the bench's own process, as the floor's sender is: a DEALER on the
/// broker's control socket sends the key-down `Input` without waiting (its ack is taken after
/// the press was seen in the page), then the key-up, waiting for its ack.
final class InProcessRemote: PageRemote {
  private let context: Context
  private let connection: ControlConnection
  private let screen: String
  /// The pressed key's request (its `replyTo`), until its ack is taken, and its stamp.
  private var pressed: (seq: UInt64, at: UInt64)?

  /// Connected to `control` (waits, bounded, for the handshake) for the screen `screen`.
  init(control: String, screen: String) throws {
    context = try Context()
    connection = try ControlConnection(context: context, endpoint: control, sender: "remote:bench")
    self.screen = screen
    try connection.awaitConnected(until: ContinuousClock.now + .seconds(10))
  }

  deinit { context.shutdown() }

  func press(_ key: Tenfoot_V1_Key) throws {
    let at = MonotonicClock.nanoseconds()
    guard let seq = try connection.send(.input(input(key, .down, at: at))) else {
      throw BenchError("the bench's remote had no connection to the broker")
    }
    pressed = (seq, at)
  }

  /// Takes the press's ack, then releases the key stamped as pressed (a tap, as
  /// `tenfoot-remote` stamps it: however late the release goes, it is not a held key).
  func finish(_ key: Tenfoot_V1_Key) throws {
    guard let (seq, at) = pressed else { return }
    pressed = nil
    try awaitAck(of: seq, what: "press")
    let release = try connection.request(.input(input(key, .up, at: at)), timeout: .seconds(5))
    guard case .ack = release else { throw BenchError("the broker refused a release") }
  }

  private func input(_ key: Tenfoot_V1_Key, _ phase: Tenfoot_V1_KeyPhase, at: UInt64)
    -> Tenfoot_V1_Input
  {
    var input = Tenfoot_V1_Input()
    input.screenID = screen
    input.key.key = key
    input.key.phase = phase
    input.key.timestampNs = at
    return input
  }

  /// Waits (bounded) for the reply to request `seq` and checks it is an ack.
  private func awaitAck(of seq: UInt64, what: String) throws {
    let deadline = ContinuousClock.now + .seconds(5)
    repeat {
      while let reply = try connection.nextReply() {
        guard reply.replyTo == seq else { continue }
        guard case .ack = reply.body else { throw BenchError("the broker refused a \(what)") }
        return
      }
    } while try connection.socket.awaitInput(until: deadline)
    throw BenchError("no ack of a \(what) within 5 s")
  }
}

/// A long-lived `tenfoot-remote script -`, pressed through a pipe to its standard input: what
/// a scripted remote costs (another process reads the line, parses it and sends the press,
/// then waits for the ack before the release).
final class ScriptedRemote: PageRemote {
  private let process: ChildProcess
  private let writer: FileHandle
  /// Where the next press's line is looked for in the remote's output.
  private var nextLine = 0

  /// The remote started on the broker's control and state endpoints (`arguments`).
  init(arguments: [String]) throws {
    let pipe = Pipe()
    process = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"), ["script", "-"] + arguments,
      stdin: pipe.fileHandleForReading)
    writer = pipe.fileHandleForWriting
  }

  deinit { stop() }

  /// Ends the remote process (idempotent).
  func stop() { process.kill() }

  func press(_ key: Tenfoot_V1_Key) throws {
    writer.write(Data("\(Self.name(key))\n".utf8))
  }

  /// Waits until the remote printed this press's line (`right: …`: it took the release's ack).
  func finish(_ key: Tenfoot_V1_Key) throws {
    let prefix = Self.name(key) + ":"
    nextLine =
      try process.waitForLine(from: nextLine, timeout: 5, "the remote's line for \(prefix)") {
        $0.hasPrefix(prefix)
      }.index + 1
  }

  private static func name(_ key: Tenfoot_V1_Key) -> String { key == .right ? "right" : "left" }
}
