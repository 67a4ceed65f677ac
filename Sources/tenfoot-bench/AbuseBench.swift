import Foundation
import Histogram
import Synchronization
import TenFootClient
import TenFootProtocol
import TestSupport
import ZeroMQ

/// Abuse: one allow-listed peer does its worst — pipelines registrations of the largest layout
/// (100,000 items, about 2.8 MB each) as fast as its socket takes them — while another peer
/// measures its `Hello` and its press → ack round trips, and the broker's resident memory is
/// sampled. The broker runs as deployed (CURVE over TCP, a data directory) with its default
/// budgets: 2,000 messages and 512 KiB a second per peer, 64 KiB per remote message, 8 MiB per
/// group commit. The attacker is a thread of this process, so it takes CPU from the same two
/// cores a remote attacker would not.
enum AbuseBench {
  /// Measures `samples` hellos and presses quiet, then as many while `registrations` huge
  /// registrations are pipelined at the broker.
  static func run(samples: Int, registrations: Int) throws -> AbuseResult {
    let directory = try TemporaryDirectory()
    let broker = try BenchProcesses.durableBroker(
      dataDirectory: BenchProcesses.dataDirectory(in: directory), peerRate: 2000,
      screenGrace: 86_400)
    defer { broker.stop() }
    let context = try Context()
    defer { context.shutdown() }
    try BenchPeers.register(
      ["victim"], layout: BenchPeers.layout(rows: 1, columns: 2), context: context,
      control: broker.control, curve: broker.curve)
    let victim = try broker.dealer(context)
    var victimPath = Victim(socket: victim)
    _ = try victimPath.measure(count: min(50, samples), broker: broker)
    let quiet = try victimPath.measure(count: samples, broker: broker)

    var request = Tenfoot_V1_RegisterScreen()
    request.screenID = "abuse"
    request.layout = BenchPeers.layout(rows: 100, columns: 1000)
    let huge = Tenfoot_V1_Envelope(
      sender: "abuser", seq: 1, sentAtNanoseconds: 0, body: .registerScreen(request)
    ).encoded()
    let attacker = Attacker(
      control: broker.control, curve: broker.curve, message: huge, count: registrations)
    attacker.start()
    defer { attacker.stop() }
    let abused = try victimPath.measure(count: samples, broker: broker)
    let totals = attacker.stop()
    return AbuseResult(
      registrationBytes: huge.count, registrationsSent: totals.sent,
      attackerAcknowledged: totals.acknowledged, attackerRateLimited: totals.rateLimited,
      quietHello: LatencyResult(
        path: "hello quiet", transport: .tcp, sizes: .unmeasured, quiet.hello),
      quietPress: LatencyResult(
        path: "press quiet", transport: .tcp, sizes: .unmeasured, quiet.press),
      abusedHello: LatencyResult(
        path: "hello abused", transport: .tcp, sizes: .unmeasured, abused.hello),
      abusedPress: LatencyResult(
        path: "press abused", transport: .tcp, sizes: .unmeasured, abused.press),
      brokerRSSMiBQuiet: Double(quiet.maxResident) / 1_048_576,
      brokerRSSMiBAbused: Double(abused.maxResident) / 1_048_576)
  }

  /// The measuring peer: a hello, then a press (its key-down timed to the ack; the key-up follows untimed), paced every
  /// 5 ms, with the broker's resident memory read after each.
  struct Victim {
    let socket: Socket
    var seq: UInt64 = 0

    struct Samples {
      var hello = Histogram<UInt64>(
        highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
      var press = Histogram<UInt64>(
        highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
      var maxResident = 0
    }

    mutating func measure(count: Int, broker: BenchProcesses.Server) throws -> Samples {
      var samples = Samples()
      for _ in 0..<count {
        let started = MonotonicClock.nanoseconds()
        seq += 1
        try socket.send(
          Tenfoot_V1_Envelope(
            sender: "victim", seq: seq, sentAtNanoseconds: started, body: .hello(.init())
          ).encoded())
        try awaitReply(seq)
        _ = samples.hello.record(MonotonicClock.nanoseconds() - started)
        // A press moves focus on its key-down: that round trip is the press's latency; the
        // key-up follows, answered before the next sample, and is not timed.
        let pressed = MonotonicClock.nanoseconds()
        for phase in 0..<2 {
          seq += 1
          try socket.send(BenchPeers.input(sender: "victim", seq: seq, screen: "victim"))
          try awaitReply(seq)
          if phase == 0 { _ = samples.press.record(MonotonicClock.nanoseconds() - pressed) }
        }
        let stats = try ProcessStats.read(pid: broker.process.pid)
        samples.maxResident = max(samples.maxResident, stats.residentBytes)
        usleep(5_000)
      }
      return samples
    }

    /// Waits (at most 30 s) for the reply to `seq`; a refusal is an error.
    private func awaitReply(_ seq: UInt64) throws {
      let deadline = ContinuousClock.now + .seconds(30)
      while try socket.awaitInput(until: deadline) {
        while let frame = try socket.receive(dontWait: true) {
          let reply = try Tenfoot_V1_Envelope.decode(frame)
          guard reply.replyTo == seq else { continue }
          if case .error(let error) = reply.body {
            throw BenchError("abuse: the victim was refused: \(error.code.name) \(error.message)")
          }
          return
        }
      }
      throw BenchError("abuse: the victim's request \(seq) got no reply within 30 s")
    }
  }

  /// The abusing peer, on its own thread with its own context and socket.
  final class Attacker: Sendable {
    struct Totals: Sendable {
      var sent = 0
      var acknowledged = 0
      var rateLimited = 0
    }

    private let control: String
    private let curve: ClientCurve?
    private let message: [UInt8]
    private let count: Int
    private let stopping = Mutex(false)
    private let totals = Mutex(Totals())
    private let done = DispatchSemaphore(value: 0)

    init(control: String, curve: ClientCurve?, message: [UInt8], count: Int) {
      self.control = control
      self.curve = curve
      self.message = message
      self.count = count
    }

    func start() {
      Thread.detachNewThread { [self] in
        defer { done.signal() }
        do {
          try attack()
        } catch {
          FileHandle.standardError.write(Data("abuse: the attacker failed: \(error)\n".utf8))
        }
      }
    }

    private func attack() throws {
      let context = try Context()
      defer { context.shutdown() }
      let socket = try Socket(context, .dealer)
      defer { socket.close() }
      if let curve { try socket.setCurveClient(serverKey: curve.brokerKey, keyPair: curve.keyPair) }
      try socket.setSendHighWaterMark(Int32(count))
      try socket.connect(control)
      var sent = 0
      while !stopping.withLock({ $0 }) {
        if sent < count, try socket.send(message, dontWait: true) {
          sent += 1
          totals.withLock { $0.sent = sent }
          continue
        }
        guard try socket.awaitInput(until: ContinuousClock.now + .milliseconds(20)) else {
          continue
        }
        while let frame = try socket.receive(dontWait: true) {
          let reply = try Tenfoot_V1_Envelope.decode(frame)
          totals.withLock { totals in
            if case .error(let error) = reply.body, error.code == .rateLimited {
              totals.rateLimited += 1
            } else {
              totals.acknowledged += 1
            }
          }
        }
      }
    }

    /// Stops the attacker (once) and returns what it did.
    @discardableResult
    func stop() -> Totals {
      let first = stopping.withLock { stopping in
        defer { stopping = true }
        return !stopping
      }
      if first { done.wait() }
      return totals.withLock { $0 }
    }
  }
}

/// Another peer's latency and the broker's memory while one peer abuses its budget.
struct AbuseResult: Codable {
  var registrationBytes: Int
  var registrationsSent: Int
  var attackerAcknowledged: Int
  var attackerRateLimited: Int
  var quietHello: LatencyResult
  var quietPress: LatencyResult
  var abusedHello: LatencyResult
  var abusedPress: LatencyResult
  var brokerRSSMiBQuiet: Double
  var brokerRSSMiBAbused: Double
}
