import Foundation
import Histogram
import Logging
import TenFootClient
import TenFootProtocol
import TenFootStore
import TestSupport
import ZeroMQ

/// The production configuration measured: `tenfoot-broker` over TCP with CURVE and a data
/// directory on disk (every change group-committed to SQLite before its ack), beside the same
/// CURVE broker with its sessions in memory (`--sessions-in-memory`: the store's own cost is
/// durable − this), the plain in-memory broker (`--insecure`, no data directory) and the CURVE
/// floor (the bare relay with CURVE on). Single remote, closed loop: a press's ack round trip, then its release.
enum DurableBench {
  /// How a phase orders its samples.
  enum Order: String, Codable, CaseIterable {
    /// Each path with its own floor, alternating sample by sample as the latency part does
    /// (durable and durable floor, CURVE in memory and CURVE floor, plain in memory and plain
    /// floor), in blocks of ``blockSize`` rounds that rotate through the three pairs: a
    /// ratio compares two processes that ran in turn, each warm from its last press.
    case pairs
    /// All six paths every round, one sample each (durable, in memory, CURVE in memory, CURVE
    /// floor, durable floor, plain floor): every sample meets a process that five others ran
    /// in between, as a press after idle does (`--pause-microseconds` measures that case too).
    case all
  }

  /// Rounds of one pair before the next pair's: long enough that the first, cold, round of a
  /// block is a small share of its samples (it is recorded like the rest).
  static let blockSize = 16

  /// The paths of one phase, sampled in ``Order``.
  struct Phase: Codable {
    var screens: Int
    var durable: LatencySummary
    var inMemory: LatencySummary
    /// The same CURVE over TCP broker, sessions in memory (no store).
    var curveInMemory: LatencySummary
    var curveFloor: LatencySummary
    /// The bare relay without CURVE: the floor of the plain in-memory path.
    var plainFloor: LatencySummary
    /// The CURVE floor that also writes and fsyncs a WAL frame before it answers a press: the
    /// least any durable broker can do on this machine, waits and wake-ups included.
    var durableFloor: LatencySummary
    /// One WAL commit's write and fsync (``WALFrameProbe``) measured between the samples, so it
    /// sees the same disk load.
    var fsync: LatencySummary
  }

  /// Runs the ack latency with 1 screen, then with `screens` registered screens, sampled in
  /// `order`. `pause` idles before each path's sample (see ``BenchPause``).
  static func ackLatency(
    samples: Int, warmUp: Int, screens: Int, dataDirectory: String, fsyncDirectory: String,
    order: Order = .pairs, pause: Duration = .zero
  ) throws -> [Phase] {
    var probe = try WALFrameProbe(directory: fsyncDirectory, frames: 1000, allocate: true)
    defer { probe.close() }
    let context = try Context()
    defer { context.shutdown() }
    let memoryDirectory = try TemporaryDirectory()
    // The "bench" screens send no heartbeats while the extra screens register on every
    // broker, which takes long on a loaded machine: a day's grace keeps them.
    let grace = 86_400
    let durable = try BenchProcesses.durableBroker(dataDirectory: dataDirectory, screenGrace: grace)
    defer { durable.stop() }
    let memory = try BenchProcesses.broker(.tcp, in: memoryDirectory, screenGrace: grace)
    defer { memory.stop() }
    let curveMemory = try BenchProcesses.durableBroker(
      dataDirectory: dataDirectory + "-curve-memory", sessionsInMemory: true, screenGrace: grace)
    defer { curveMemory.stop() }
    let layout = BenchPeers.layout(rows: 10, columns: 20)
    var durablePath = try AckPath(
      context: context, server: durable, screen: "bench", layout: layout)
    let memoryPath = try AckPath(context: context, server: memory, screen: "bench", layout: layout)
    let curveMemoryPath = try AckPath(
      context: context, server: curveMemory, screen: "bench", layout: layout)
    _ = try durablePath.sample()
    let floorDirectory = try TemporaryDirectory()
    let relay = try BenchProcesses.floorRelay(
      .tcp, in: floorDirectory, replyBytes: durablePath.ackBytes,
      topic: WireProtocol.stateTopic(screen: "bench"), publicationBytes: 200, curve: true)
    defer { relay.process.kill() }  // SIGKILL: see LatencyBench.
    let floorPath = try AckPath(context: context, server: relay, screen: nil, layout: layout)
    let plainRelay = try BenchProcesses.floorRelay(
      .tcp, in: floorDirectory, replyBytes: durablePath.ackBytes,
      topic: WireProtocol.stateTopic(screen: "bench"), publicationBytes: 200)
    defer { plainRelay.process.kill() }
    let plainFloorPath = try AckPath(
      context: context, server: plainRelay, screen: nil, layout: layout)
    let durableRelay = try BenchProcesses.floorRelay(
      .tcp, in: floorDirectory, replyBytes: durablePath.ackBytes,
      topic: WireProtocol.stateTopic(screen: "bench"), publicationBytes: 200, curve: true,
      walDirectory: fsyncDirectory)
    defer { durableRelay.process.kill() }
    let durableFloorPath = try AckPath(
      context: context, server: durableRelay, screen: nil, layout: layout)
    // Indexed as `phase` takes them.
    var paths = [
      durablePath, memoryPath, curveMemoryPath, floorPath, durableFloorPath, plainFloorPath,
    ]
    var phases: [Phase] = []
    for registered in [1, screens] {
      if registered > 1 {
        let extra = (1..<registered).map { "x\($0)" }
        for server in [durable, memory, curveMemory] {
          try BenchPeers.register(
            extra, layout: layout, context: context, control: server.control, curve: server.curve)
        }
      }
      phases.append(
        try phase(
          registered, samples: samples, warmUp: warmUp, order: order, pause: pause,
          probe: &probe, paths: &paths))
    }
    return phases
  }

  /// One phase's samples, `warmUp + samples` per path in `order` (the first `warmUp` not
  /// recorded), and one WAL commit timed between the durable path and its floor each time.
  /// `paths` are durable, in memory, CURVE in memory, CURVE floor, durable floor, plain floor.
  private static func phase(
    _ registered: Int, samples: Int, warmUp: Int, order: Order, pause: Duration,
    probe: inout WALFrameProbe, paths: inout [AckPath]
  ) throws -> Phase {
    // Indexed as `paths`, then the WAL probe.
    var histograms = Array(repeating: LatencySummary.histogram(), count: 7)
    func sample(_ path: Int, round: Int) throws {
      BenchPause.idle(pause)
      let nanoseconds = try path == 6 ? probe.sample() : paths[path].sample()
      if round >= warmUp { _ = histograms[path].record(nanoseconds) }
    }
    let total = warmUp + samples
    switch order {
    case .all:
      for round in 0..<total {
        for path in [0, 1, 2, 3, 6, 4, 5] { try sample(path, round: round) }
      }
    case .pairs:
      // Each path beside its floor; the WAL probe between the durable path and its floor.
      let pairs = [[0, 6, 4], [2, 3], [1, 5]]
      for start in stride(from: 0, to: total, by: blockSize) {
        for pair in pairs {
          for round in start..<min(start + blockSize, total) {
            for path in pair { try sample(path, round: round) }
          }
        }
      }
    }
    return Phase(
      screens: registered, durable: LatencySummary(histograms[0]),
      inMemory: LatencySummary(histograms[1]), curveInMemory: LatencySummary(histograms[2]),
      curveFloor: LatencySummary(histograms[3]), plainFloor: LatencySummary(histograms[5]),
      durableFloor: LatencySummary(histograms[4]), fsync: LatencySummary(histograms[6]))
  }

  /// The fsync of the disk under `directory`, on its own, as a SQLite WAL commit does it
  /// (``WALFrameProbe``), `count` times. `append` grows the file each time (a WAL before its
  /// first checkpoint: ext4 then commits its journal too); otherwise the frames are written
  /// over a file allocated beforehand (a WAL reused after a checkpoint, SQLite's steady state).
  static func fsync(in directory: String, count: Int, append: Bool) throws -> LatencySummary {
    var probe = try WALFrameProbe(
      directory: directory, name: "fsync-probe", frames: count, allocate: !append)
    defer { probe.close() }
    var histogram = LatencySummary.histogram()
    for _ in 0..<count { _ = histogram.record(try probe.sample()) }
    return LatencySummary(histogram)
  }

  /// The session store on its own, as the broker commits a press: one screen's row changed
  /// and committed (GRDB, SQLite, its WAL frame and `fdatasync`) among `screens` rows,
  /// interleaved with the bare WAL-frame probe on the same disk, `count` times each after
  /// 1,100 warm-up commits (past SQLite's first checkpoint). The difference of the medians is
  /// what the store adds to one fsync.
  static func storeCommit(in directory: String, screens: Int, count: Int) throws -> (
    store: LatencySummary, fsync: LatencySummary
  ) {
    let path = directory + "/store-probe"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var logger = Logger(label: "tenfoot.bench.store")
    logger.logLevel = .warning
    let store = try SessionStore(directory: path, logger: logger)
    let remembered = Dictionary(uniqueKeysWithValues: (0..<10).map { ("row\($0)", "r\($0)c3") })
    // Every commit changes its row (a row equal to the durable one is skipped, no fsync).
    func row(_ screen: Int, focused: Int) -> SessionRow {
      SessionRow(
        screenID: "screen-\(screen)", focused: "item-\(focused)",
        selected: ["r0c1", "r2c5"], remembered: remembered, rememberedOwn: remembered)
    }
    try store.commit((0..<screens).map { row($0, focused: 0) })
    var probe = try WALFrameProbe(directory: directory, frames: 1_000, allocate: true)
    defer { probe.close() }
    var storeHistogram = LatencySummary.histogram()
    var fsyncHistogram = LatencySummary.histogram()
    for index in 0..<(1_100 + count) {
      let change = row(index % screens, focused: index + 1)
      let start = MonotonicClock.nanoseconds()
      try store.commit([change])
      let took = MonotonicClock.nanoseconds() - start
      let bare = try probe.sample()
      guard index >= 1_100 else { continue }
      _ = storeHistogram.record(took)
      _ = fsyncHistogram.record(bare)
    }
    guard store.commits == 1 + 1_100 + count else {
      throw BenchError("the store probe committed \(store.commits) times, not \(1 + 1_100 + count)")
    }
    return (LatencySummary(storeHistogram), LatencySummary(fsyncHistogram))
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

/// One SQLite WAL commit's write and sync, on its own: a 24-byte frame header and a 4 KiB
/// page written (two `pwrite`s, as SQLite's `walWriteOneFrame` does) at the next frame's
/// offset of a WAL-shaped file (32-byte header, then 4,120-byte frames), then `fdatasync`.
/// Allocated, the file is written in full and synced first, and the frames wrap around: a
/// WAL reused after a checkpoint. Same directory (file system) as the broker's data.
struct WALFrameProbe {
  private let fd: Int32
  private let path: String
  private let frames: Int
  private var index = 0
  private let header = [UInt8](repeating: 0xA5, count: 24)
  private let page = [UInt8](repeating: 0x5A, count: 4096)
  private static let frameBytes = 24 + 4096

  init(directory: String, name: String = "fsync-interleaved", frames: Int, allocate: Bool)
    throws
  {
    path = directory + "/" + name
    self.frames = frames
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw BenchError("cannot create \(path): errno \(errno)") }
    guard allocate else { return }
    let zeros = [UInt8](repeating: 0, count: 32 + Self.frameBytes * frames)
    guard zeros.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == zeros.count,
      fdatasync(fd) == 0
    else { throw BenchError("cannot prepare \(path): errno \(errno)") }
  }

  /// One frame written and `fdatasync`ed; nanoseconds.
  mutating func sample() throws -> UInt64 {
    let start = MonotonicClock.nanoseconds()
    let offset = off_t(32 + index % frames * Self.frameBytes)
    index += 1
    guard header.withUnsafeBytes({ pwrite(fd, $0.baseAddress, $0.count, offset) }) == 24,
      page.withUnsafeBytes({ pwrite(fd, $0.baseAddress, $0.count, offset + 24) }) == 4096,
      fdatasync(fd) == 0
    else { throw BenchError("fsync probe failed in \(path): errno \(errno)") }
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
