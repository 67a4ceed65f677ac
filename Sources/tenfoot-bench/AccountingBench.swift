import Foundation
import Histogram
import TestSupport
import ZeroMQ

/// Where a press's time goes: per press, each process and thread on the path, its system
/// calls, context switches (each a sleep and a wake-up, or a preemption) and CPU time, for
/// TenFoot beside the floor. `perf stat` counts them (the `raw_syscalls:sys_enter` tracepoint
/// and the `context-switches` and `task-clock` software events, per thread), attached to the
/// server and to this process and enabled only while the measured presses run.
///
/// Unlike the latency part, each path runs alone here (not interleaved), so the counts of
/// this process (the remote and the screen side) belong to one path. A TenFoot sample is a
/// press and its release (two requests, their acks and what they publish, the screen side
/// decoding and applying); so that the floor does the same hops, its sample here also sends a
/// second request and waits for its publication and reply.
enum AccountingBench {
  /// One thread's counts per press.
  struct ThreadRow: Codable {
    var path: String
    var transport: BenchProcesses.Transport
    /// `server` (the broker or the relay) or `client` (this process: remote and screen side).
    var process: String
    /// The thread's name (`ZMQbg/IO/0`, `tenfoot-broker`, …).
    var thread: String
    var syscallsPerPress: Double
    var contextSwitchesPerPress: Double
    var cpuMicrosecondsPerPress: Double
  }

  /// Every thread's row and the sample median while counted, for both paths over `transport`.
  struct Result: Codable {
    var transport: BenchProcesses.Transport
    var presses: Int
    var rows: [ThreadRow]
    var tenfootMedianMicroseconds: Double
    var floorMedianMicroseconds: Double
  }

  static func run(_ transport: BenchProcesses.Transport, warmUp: Int, presses: Int) throws
    -> Result
  {
    let directory = try TemporaryDirectory()
    let broker = try BenchProcesses.broker(transport, in: directory)
    defer { broker.stop() }
    let tenfootContext = try Context()
    defer { tenfootContext.shutdown() }
    var tenfoot = try TenFootPath(
      context: tenfootContext, control: broker.control, state: broker.state, screenID: "bench")
    try LatencyBench.sample(&tenfoot, index: 0, what: "tenfoot")
    let (tenfootRows, tenfootMedian) = try count(
      &tenfoot, path: "tenfoot", transport: transport, server: broker.process.pid,
      warmUp: warmUp, presses: presses)

    let floorDirectory = try TemporaryDirectory()
    let relay = try BenchProcesses.floorRelay(
      transport, in: floorDirectory, replyBytes: tenfoot.ackBytes, topic: tenfoot.topic,
      publicationBytes: tenfoot.deltaBytes)
    defer { relay.process.kill() }
    let floorContext = try Context()
    defer { floorContext.shutdown() }
    var floor = try FloorPath(
      context: floorContext, control: relay.control, state: relay.state, topic: tenfoot.topic,
      inputBytes: tenfoot.inputBytes)
    try LatencyBench.subscribe(&floor)
    floor.mimicsRelease = true
    let (floorRows, floorMedian) = try count(
      &floor, path: "floor", transport: transport, server: relay.process.pid, warmUp: warmUp,
      presses: presses)
    return Result(
      transport: transport, presses: presses, rows: tenfootRows + floorRows,
      tenfootMedianMicroseconds: tenfootMedian, floorMedianMicroseconds: floorMedian)
  }

  /// Warms `path` up, then counts `presses` samples of it with `perf stat` on the server and
  /// on this process.
  private static func count<Path: TwoHopPath>(
    _ path: inout Path, path name: String, transport: BenchProcesses.Transport, server: Int32,
    warmUp: Int, presses: Int
  ) throws -> (rows: [ThreadRow], medianMicroseconds: Double) {
    for index in 1...max(1, warmUp) { try LatencyBench.sample(&path, index: index, what: name) }
    let scratch = try TemporaryDirectory()
    let perf = try PerfStat(processes: [server, getpid()], directory: scratch.path)
    var histogram = Histogram<UInt64>(
      highestTrackableValue: 10_000_000_000, numberOfSignificantValueDigits: .three)
    try perf.enable()
    for index in 1...presses {
      _ = histogram.record(try LatencyBench.sample(&path, index: warmUp + index, what: name))
    }
    let threads = try perf.finish()
    let per = Double(presses)
    // Threads that did nothing measurable per press (this process's output readers) are left out.
    let measured = threads.filter {
      Double($0.syscalls + $0.contextSwitches) / Double(presses) >= 0.005
        || $0.cpuMilliseconds * 1000 / Double(presses) >= 0.005
    }
    let rows = measured.map { thread in
      ThreadRow(
        path: name, transport: transport, process: thread.pid == server ? "server" : "client",
        thread: thread.name, syscallsPerPress: round(Double(thread.syscalls) / per),
        contextSwitchesPerPress: round(Double(thread.contextSwitches) / per),
        cpuMicrosecondsPerPress: round(thread.cpuMilliseconds * 1000 / per))
    }
    return (rows, LatencyResult.micro(histogram.valueAtPercentile(50)))
  }

  private static func round(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}

/// `perf stat` attached to running processes, counting per thread only between `enable()` and
/// `finish()`: perf starts with its counters disabled (`-D -1`) and is driven through its
/// control FIFO, whose acknowledgement says the counters really are on (or off) before the
/// measured work starts (or after it ends).
final class PerfStat {
  /// One thread's totals. Threads that share a name within a process are summed.
  struct ThreadCounts {
    var pid: Int32
    var name: String
    var syscalls = 0
    var contextSwitches = 0
    var cpuMilliseconds = 0.0
  }

  private let process: ChildProcess
  private let output: String
  private let control: Int32
  private let acknowledgement: Int32

  init(processes: [Int32], directory: String) throws {
    guard let perf = Self.perfExecutable else {
      throw BenchError("the accounting part needs perf (Debian: apt install linux-perf)")
    }
    output = directory + "/perf.csv"
    let controlPath = directory + "/perf-control"
    let ackPath = directory + "/perf-ack"
    guard mkfifo(controlPath, 0o600) == 0, mkfifo(ackPath, 0o600) == 0 else {
      throw BenchError("mkfifo in \(directory): \(String(cString: strerror(errno)))")
    }
    // Read-write opens of a FIFO do not wait for the other end.
    control = open(controlPath, O_RDWR | O_CLOEXEC)
    acknowledgement = open(ackPath, O_RDWR | O_CLOEXEC)
    guard control >= 0, acknowledgement >= 0 else {
      throw BenchError("cannot open perf's control FIFOs: \(String(cString: strerror(errno)))")
    }
    process = try ChildProcess(
      perf,
      [
        "stat", "-x", ",", "--per-thread", "-e",
        "raw_syscalls:sys_enter,context-switches,task-clock", "-p",
        processes.map(String.init).joined(separator: ","), "-D", "-1", "--control",
        "fifo:\(controlPath),\(ackPath)", "-o", output,
      ])
  }

  deinit {
    close(control)
    close(acknowledgement)
  }

  /// `perf` on the PATH.
  static var perfExecutable: String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
      .map { "\($0)/perf" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Turns the counters on; returns once perf says they are.
  func enable() throws { try command("enable") }

  /// Turns the counters off, ends perf and returns every thread's totals.
  func finish() throws -> [ThreadCounts] {
    try command("disable")
    process.signal(SIGINT)
    let status = try process.waitForExit(timeout: 20)
    // perf ends itself with the SIGINT it handled, after writing its counts.
    guard status == 0 || status == SIGINT else {
      throw BenchError("perf stat failed (\(status)): \(process.errors.suffix(5))")
    }
    return try parse(String(contentsOfFile: output, encoding: .utf8))
  }

  private func command(_ text: String) throws {
    let bytes = Array((text + "\n").utf8)
    guard write(control, bytes, bytes.count) == bytes.count else {
      throw BenchError("cannot write to perf's control FIFO")
    }
    var poll = pollfd(fd: acknowledgement, events: Int16(POLLIN), revents: 0)
    guard Glibc.poll(&poll, 1, 10_000) == 1 else {
      throw BenchError("perf did not acknowledge '\(text)' within 10 s: \(process.errors)")
    }
    var buffer = [UInt8](repeating: 0, count: 16)
    _ = read(acknowledgement, &buffer, buffer.count)
  }

  /// perf's CSV lines: `comm-tid,value,unit,event,…` (`<not counted>` for a thread that did
  /// nothing).
  private func parse(_ text: String) throws -> [ThreadCounts] {
    var threads: [String: ThreadCounts] = [:]
    var order: [String] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= 4, let dash = fields[0].lastIndex(of: "-"),
        let tid = Int32(fields[0][fields[0].index(after: dash)...])
      else { continue }
      let pid = Self.process(of: tid) ?? tid
      let name = String(fields[0][..<dash])
      let key = "\(pid)/\(name)"
      if threads[key] == nil {
        threads[key] = ThreadCounts(pid: pid, name: name)
        order.append(key)
      }
      let value = Double(fields[1]) ?? 0
      switch fields[3] {
      case "raw_syscalls:sys_enter": threads[key]?.syscalls += Int(value)
      case "context-switches": threads[key]?.contextSwitches += Int(value)
      case "task-clock": threads[key]?.cpuMilliseconds += value
      default: continue
      }
    }
    return order.compactMap { threads[$0] }.filter {
      $0.syscalls + $0.contextSwitches > 0 || $0.cpuMilliseconds > 0
    }
  }

  /// The process a thread belongs to (its Tgid), while it runs.
  private static func process(of tid: Int32) -> Int32? {
    guard let status = try? String(contentsOfFile: "/proc/\(tid)/status", encoding: .utf8)
    else { return nil }
    return status.split(separator: "\n").first { $0.hasPrefix("Tgid:") }
      .flatMap { Int32($0.dropFirst(5).trimmingCharacters(in: .whitespaces)) }
  }
}
