import Foundation
import Histogram
import TenFootClient
import TenFootProtocol
import TestSupport
import ZeroMQ

/// The production configuration measured: `tenfoot-broker` over TCP with CURVE and a data
/// directory on disk (every change group-committed to SQLite before its ack), beside the plain
/// in-memory broker (`--insecure`, no data directory) and the CURVE floor (the bare relay with
/// CURVE on). Single remote, closed loop: a press's ack round trip, then its release.
enum DurableBench {
  /// The three paths of one phase, interleaved sample by sample.
  struct Phase: Codable {
    var screens: Int
    var durable: LatencySummary
    var inMemory: LatencySummary
    var curveFloor: LatencySummary
    /// The disk's fsync measured between the samples, so it sees the same disk load.
    var fsync: LatencySummary
  }

  /// Runs the ack latency with 1 screen, then with `screens` registered screens.
  static func ackLatency(
    samples: Int, warmUp: Int, screens: Int, dataDirectory: String, fsyncDirectory: String
  ) throws -> [Phase] {
    var probe = try FsyncProbe(directory: fsyncDirectory, pages: 256)
    defer { probe.close() }
    let context = try Context()
    defer { context.shutdown() }
    let memoryDirectory = try TemporaryDirectory()
    let durable = try BenchProcesses.durableBroker(dataDirectory: dataDirectory)
    defer { durable.stop() }
    let memory = try BenchProcesses.broker(.tcp, in: memoryDirectory)
    defer { memory.stop() }
    let layout = BenchPeers.layout(rows: 10, columns: 20)
    var durablePath = try AckPath(
      context: context, server: durable, screen: "bench", layout: layout)
    var memoryPath = try AckPath(context: context, server: memory, screen: "bench", layout: layout)
    _ = try durablePath.sample()
    let floorDirectory = try TemporaryDirectory()
    let relay = try BenchProcesses.floorRelay(
      .tcp, in: floorDirectory, replyBytes: durablePath.ackBytes,
      topic: WireProtocol.stateTopic(screen: "bench"), publicationBytes: 200, curve: true)
    defer { relay.process.kill() }  // SIGKILL: see LatencyBench.
    var floorPath = try AckPath(context: context, server: relay, screen: nil, layout: layout)
    var phases: [Phase] = []
    for registered in [1, screens] {
      if registered > 1 {
        let extra = (1..<registered).map { "x\($0)" }
        for server in [durable, memory] {
          try BenchPeers.register(
            extra, layout: layout, context: context, control: server.control, curve: server.curve)
        }
      }
      var histograms = Array(repeating: LatencySummary.histogram(), count: 4)
      for index in 0..<(warmUp + samples) {
        let durableNs = try durablePath.sample()
        let memoryNs = try memoryPath.sample()
        let floorNs = try floorPath.sample()
        let fsyncNs = try probe.sample()
        guard index >= warmUp else { continue }
        _ = histograms[3].record(fsyncNs)
        _ = histograms[0].record(durableNs)
        _ = histograms[1].record(memoryNs)
        _ = histograms[2].record(floorNs)
      }
      phases.append(
        Phase(
          screens: registered, durable: LatencySummary(histograms[0]),
          inMemory: LatencySummary(histograms[1]), curveFloor: LatencySummary(histograms[2]),
          fsync: LatencySummary(histograms[3])))
    }
    return phases
  }

  /// The fsync of the disk under `directory`, on its own: write 4 KiB and `fdatasync`,
  /// `count` times. `append` grows the file each time (a WAL before its first checkpoint:
  /// the file system's journal commits too); otherwise the pages are written over in a file
  /// allocated beforehand (a WAL reused after a checkpoint, SQLite's steady state).
  static func fsync(in directory: String, count: Int, append: Bool) throws -> LatencySummary {
    let path = directory + "/fsync-probe"
    let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw BenchError("cannot create \(path): errno \(errno)") }
    defer {
      close(fd)
      unlink(path)
    }
    let page = [UInt8](repeating: 0x5A, count: 4096)
    func write(at index: Int) -> Bool {
      page.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(index * 4096)) } == 4096
    }
    if !append {
      for index in 0..<count where !write(at: index) {
        throw BenchError("cannot write \(path): errno \(errno)")
      }
      guard fdatasync(fd) == 0 else { throw BenchError("fdatasync failed: errno \(errno)") }
    }
    var histogram = LatencySummary.histogram()
    for index in 0..<count {
      let start = MonotonicClock.nanoseconds()
      guard write(at: index), fdatasync(fd) == 0 else {
        throw BenchError("write or fdatasync failed in \(directory): errno \(errno)")
      }
      _ = histogram.record(MonotonicClock.nanoseconds() - start)
    }
    return LatencySummary(histogram)
  }

  /// The file system under `path` ("ext4 on /dev/vda", "tmpfs on tmpfs", …): the entry of
  /// /proc/mounts with the longest mount point that contains it.
  static func fileSystem(of path: String) -> String {
    let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
    var best: (point: String, description: String)?
    for line in mounts.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count >= 3 else { continue }
      let point = String(fields[1])
      let contains = path == point || path.hasPrefix(point == "/" ? "/" : point + "/")
      if contains, point.count > (best?.point.count ?? -1) {
        best = (point, "\(fields[2]) on \(fields[0])")
      }
    }
    return best?.description ?? "unknown"
  }
}

/// 4 KiB written over an allocated page of a file and `fdatasync`ed: one WAL commit's sync,
/// on its own, taken between other samples.
struct FsyncProbe {
  private let fd: Int32
  private let path: String
  private let pages: Int
  private var index = 0
  private let page = [UInt8](repeating: 0x5A, count: 4096)

  init(directory: String, pages: Int) throws {
    path = directory + "/fsync-interleaved"
    self.pages = pages
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw BenchError("cannot create \(path): errno \(errno)") }
    let zeros = [UInt8](repeating: 0, count: 4096 * pages)
    guard zeros.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == zeros.count,
      fdatasync(fd) == 0
    else { throw BenchError("cannot prepare \(path): errno \(errno)") }
  }

  /// One write and fdatasync; nanoseconds.
  mutating func sample() throws -> UInt64 {
    let start = MonotonicClock.nanoseconds()
    let offset = off_t(index % pages * 4096)
    index += 1
    guard page.withUnsafeBytes({ pwrite(fd, $0.baseAddress, $0.count, offset) }) == 4096,
      fdatasync(fd) == 0
    else { throw BenchError("fsync probe failed: errno \(errno)") }
    return MonotonicClock.nanoseconds() - start
  }

  /// Closes and removes the file.
  func close() {
    Glibc.close(fd)
    unlink(path)
  }
}

/// Median, p99 and max of a latency histogram, in microseconds.
struct LatencySummary: Codable {
  var medianMicroseconds: Double
  var p99Microseconds: Double
  var maxMicroseconds: Double

  init(_ histogram: Histogram<UInt64>) {
    medianMicroseconds = LatencyResult.micro(histogram.valueAtPercentile(50))
    p99Microseconds = LatencyResult.micro(histogram.valueAtPercentile(99))
    maxMicroseconds = LatencyResult.micro(histogram.max)
  }

  static func histogram() -> Histogram<UInt64> {
    Histogram(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
  }
}

/// One remote's closed loop on a server: press (timed: sent → ack), then release, each
/// waited for; a subscriber to the screen's state is drained as a screen would read it.
/// With `screen` nil the server is the floor relay, whose replies are opaque bytes.
struct AckPath {
  private let dealer: Socket
  private let subscriber: Socket
  private let screen: String?
  private var seq: UInt64 = 0
  private var key = Tenfoot_V1_Key.left
  private(set) var ackBytes = 0

  init(context: Context, server: BenchProcesses.Server, screen: String?, layout: Tenfoot_V1_Layout)
    throws
  {
    self.screen = screen
    if let screen {
      try BenchPeers.register(
        [screen], layout: layout, context: context, control: server.control, curve: server.curve)
      subscriber = try BenchPeers.subscriber(
        context: context, state: server.state, prefix: WireProtocol.stateTopic(screen: screen),
        curve: server.curve)
    } else {
      subscriber = try Socket(context, .subscriber)
      try server.secure(subscriber)
      try subscriber.subscribe(WireProtocol.stateTopic(screen: "bench"))
      try subscriber.connect(server.state)
    }
    dealer = try server.dealer(context)
  }

  /// One press and release; returns the press's ack round trip in nanoseconds.
  mutating func sample() throws -> UInt64 {
    // Presses alternate right and left, so each one moves focus (a durable change).
    key = key == .right ? .left : .right
    let start = MonotonicClock.nanoseconds()
    try send(phase: .down)
    ackBytes = try awaitReply()
    let elapsed = MonotonicClock.nanoseconds() - start
    try send(phase: .up)
    _ = try awaitReply()
    while try subscriber.receiveMultipart(dontWait: true) != nil {}
    return elapsed
  }

  private mutating func send(phase: Tenfoot_V1_KeyPhase) throws {
    seq += 1
    var input = Tenfoot_V1_Input()
    input.screenID = screen ?? "bench"
    input.key.key = key
    input.key.phase = phase
    input.key.timestampNs = MonotonicClock.nanoseconds()
    try dealer.send(
      Tenfoot_V1_Envelope(
        sender: "remote:bench", seq: seq, sentAtNanoseconds: input.key.timestampNs,
        body: .input(input)
      ).encoded())
  }

  private func awaitReply() throws -> Int {
    var poller = Poller()
    poller.add(dealer)
    let deadline = MonotonicClock.nanoseconds() + 10_000_000_000
    while MonotonicClock.nanoseconds() < deadline {
      if let frame = try dealer.receive(dontWait: true) {
        if screen != nil, case .error(let error) = try Tenfoot_V1_Envelope.decode(frame).body {
          throw BenchError("input refused: \(error.code) \(error.message)")
        }
        return frame.count
      }
      try poller.poll(timeout: .milliseconds(100))
    }
    throw BenchError("no reply within 10 s")
  }
}
