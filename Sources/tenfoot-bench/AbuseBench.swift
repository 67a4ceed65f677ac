import Foundation
import Histogram
import TenFootProtocol
import TestSupport
import ZeroMQ

/// Abuse: one allow-listed peer does its worst — pipelines registrations of the largest layout
/// (100,000 items, about 6 MiB each, in parts of the largest message the broker reads, 256
/// KiB) as fast as its socket takes them — while another peer
/// measures its `Hello` and press round trips, and the broker's resident memory is sampled.
/// The broker runs as deployed (CURVE over TCP, a data directory) with its default budgets:
/// 2,000 messages and 512 KiB a second per peer, 16 messages queued per connection, 64 KiB per
/// remote message, 8 MiB per group commit.
///
/// The abuser is a separate process (`tenfoot-bench abuser`). On two cores its CURVE
/// encryption of 6 MiB messages competes with the broker for CPU, which an abuser on another
/// machine would not, so it runs twice: at normal priority and at `nice 19`.
enum AbuseBench {
  /// Measures `samples` hellos and presses quiet, then as many while `registrations` huge
  /// registrations are pipelined at the broker, at each of `niceness`. `brokerOptions`
  /// (`--name`, value) change the broker's defaults, to compare settings with one build.
  static func run(
    samples: Int, registrations: Int, niceness: [Int] = [0, 19],
    brokerOptions: [(String, String?)] = []
  ) throws -> AbuseResult {
    let directory = try TemporaryDirectory()
    let broker = try BenchProcesses.durableBroker(
      dataDirectory: BenchProcesses.dataDirectory(in: directory), peerRate: 2000,
      screenGrace: 86_400, otherKeys: 1, options: brokerOptions)
    defer { broker.stop() }
    let context = try Context()
    defer { context.shutdown() }
    try BenchPeers.register(
      ["victim"], layout: BenchPeers.layout(rows: 1, columns: 2), context: context,
      control: broker.control, curve: broker.curve)
    var victim = Victim(socket: try broker.dealer(context))
    _ = try victim.measure(count: min(50, samples), broker: broker)
    let quiet = try victim.measure(count: samples, broker: broker)
    var result = AbuseResult(
      quietHello: LatencyResult(
        path: "hello quiet", transport: .tcp, sizes: .unmeasured, quiet.hello),
      quietPress: LatencyResult(
        path: "press quiet", transport: .tcp, sizes: .unmeasured, quiet.press),
      brokerRSSMiBQuiet: Double(quiet.maxResident) / 1_048_576,
      brokerPeakMiBQuiet: try Self.peakMiB(broker))
    for nice in niceness {
      let ioBefore = ProcessStats.threadCPUSeconds(pid: broker.process.pid, prefix: "ZMQbg/IO")
      let abuser = try startAbuser(broker: broker, registrations: registrations, niceness: nice)
      defer { abuser.process.kill() }
      let abused = try victim.measure(count: samples, broker: broker)
      try abuser.stop.fileHandleForWriting.close()
      // Generous: at nice 19 on a machine loaded by other work the abuser gets little CPU.
      let totals = try abuser.process.waitForLine(timeout: 120, "the abuser's totals") {
        $0.hasPrefix("abuser done")
      }.line
      let fields = BenchProcesses.fields(of: totals).compactMapValues { Int($0) }
      result.abused.append(
        AbuseResult.Abused(
          abuserNiceness: nice, registrationBytes: abuser.bytes,
          registrationsSent: fields["sent"] ?? 0, answered: fields["answered"] ?? 0,
          rateLimited: fields["rate_limited"] ?? 0,
          hello: LatencyResult(
            path: "hello abused", transport: .tcp, sizes: .unmeasured, abused.hello),
          press: LatencyResult(
            path: "press abused", transport: .tcp, sizes: .unmeasured, abused.press),
          brokerRSSMiB: Double(abused.maxResident) / 1_048_576,
          brokerPeakMiB: try Self.peakMiB(broker),
          brokerIOThreadSeconds: ProcessStats.threadCPUSeconds(
            pid: broker.process.pid, prefix: "ZMQbg/IO") - ioBefore))
    }
    return result
  }

  /// The broker's peak resident memory since it started (`VmHWM`), in MiB.
  private static func peakMiB(_ broker: BenchProcesses.Server) throws -> Double {
    Double(try ProcessStats.read(pid: broker.process.pid).peakResidentBytes) / 1_048_576
  }

  /// Starts `tenfoot-bench abuser` at `niceness` with an allow-listed key of its own (budgets
  /// are per key: the victim's is not the abuser's) and waits (at most 120 s: at nice 19 it may be starved) for its first send.
  private static func startAbuser(
    broker: BenchProcesses.Server, registrations: Int, niceness: Int
  ) throws -> (process: ChildProcess, stop: Pipe, bytes: Int) {
    guard let curve = broker.otherCurves.first else {
      throw BenchError("abuse: the broker has no second CURVE key")
    }
    let stop = Pipe()
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    var environment = ProcessInfo.processInfo.environment
    environment["TENFOOT_ABUSER_PUBLIC"] = curve.keyPair.publicKey
    environment["TENFOOT_ABUSER_SECRET"] = curve.keyPair.secretKey
    environment["TENFOOT_ABUSER_BROKER"] = curve.brokerKey
    let process = try ChildProcess(
      "/usr/bin/nice",
      [
        "-n", "\(niceness)", executable, "abuser", "--control", broker.control, "--count",
        "\(registrations)",
      ], environment: environment, stdin: stop.fileHandleForReading)
    let started = try process.waitForLine(timeout: 120, "the abuser's first send") {
      $0.hasPrefix("abuser started")
    }.line
    return (process, stop, BenchProcesses.fields(of: started)["bytes"].flatMap { Int($0) } ?? 0)
  }

  /// The measuring peer: a hello, then a press (its key-down timed to the ack; the key-up
  /// follows untimed), paced every 5 ms, with the broker's resident memory read after each.
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
}

/// Another peer's latency and the broker's memory while one peer abuses its budget.
struct AbuseResult: Codable {
  /// One run of the abuser at one priority.
  struct Abused: Codable {
    var abuserNiceness: Int
    var registrationBytes: Int
    var registrationsSent: Int
    var answered: Int
    var rateLimited: Int
    var hello: LatencyResult
    var press: LatencyResult
    var brokerRSSMiB: Double
    /// The broker's peak resident memory since its start, read after this run (`VmHWM`).
    var brokerPeakMiB: Double
    /// CPU time of the broker's libzmq I/O thread(s) during this run, in seconds: mostly
    /// decrypting what the abuser sends.
    var brokerIOThreadSeconds: Double
  }

  var quietHello: LatencyResult
  var quietPress: LatencyResult
  var brokerRSSMiBQuiet: Double
  var brokerPeakMiBQuiet: Double
  var abused: [Abused] = []
}
