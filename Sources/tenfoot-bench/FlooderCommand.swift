import ArgumentParser
import Foundation
import TenFootProtocol
import ZeroMQ

/// `tenfoot-bench flooder`: a remote that sends key events to the screen "flooded" as fast as
/// its socket takes them, until its standard input closes (started by the flood benchmark).
/// Prints `flooder throttled` at the broker's first `rate_limited` answer, and at the end
/// `flooder done sent=… acked=… rate_limited=… seconds=…`.
struct FlooderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "flooder", abstract: "Flood a broker with key events (started by the benchmark).")

  @Option var control: String
  @Option var screen = "flooded"
  @Option(help: "Messages per second (0: as fast as the socket takes them).")
  var rate = 0

  func run() throws {
    let stopped = StopOnEndOfInput()
    let context = try Context()
    let dealer = try Socket(context, .dealer)
    try dealer.connect(control)
    let start = MonotonicClock.nanoseconds()
    var (sent, rateLimited, acknowledged) = (0, 0, 0)
    var seq: UInt64 = 0
    // Paced floods send a millisecond's worth at a time, then wait for the next millisecond.
    let perTick = rate > 0 ? max(1, rate / 1000) : 64
    var nextTick = MonotonicClock.nanoseconds()
    while !stopped.isSet {
      if rate > 0 {
        while MonotonicClock.nanoseconds() < nextTick { usleep(100) }
        nextTick += 1_000_000
      }
      for _ in 0..<perTick {
        let bytes = BenchPeers.input(sender: "remote:flooder", seq: seq + 1, screen: screen)
        if try dealer.send(bytes, dontWait: true) {
          seq += 1
          sent += 1
        }
      }
      while let reply = try dealer.receive(dontWait: true) {
        switch try? Tenfoot_V1_Envelope.decode(reply).body {
        case .error(let error) where error.code == .rateLimited:
          if rateLimited == 0 { Table.line("flooder throttled") }
          rateLimited += 1
        case .ack: acknowledged += 1
        default: break
        }
      }
    }
    let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
    Table.line(
      "flooder done sent=\(sent) acked=\(acknowledged) rate_limited=\(rateLimited) "
        + "seconds=\(seconds)")
    dealer.close()
    context.shutdown()
  }
}

/// Set once standard input reaches its end (a thread blocks reading it).
final class StopOnEndOfInput: @unchecked Sendable {
  // @unchecked Sendable is sound: `flag` is touched only under `lock`.
  private let lock = NSLock()
  private var flag = false

  init() {
    let thread = Thread { [self] in
      _ = FileHandle.standardInput.readDataToEndOfFile()
      lock.withLock { flag = true }
    }
    thread.start()
  }

  var isSet: Bool { lock.withLock { flag } }
}
