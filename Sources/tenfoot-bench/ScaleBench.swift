import Dispatch
import Histogram
import ScreenCore
import TenFootClient
import TenFootProtocol
import TestSupport
import ZeroMQ

/// A venue on one broker: `screens` screens with `rows`×`columns` layouts, `remotes` remotes
/// each sending `rate` inputs per second (evenly staggered, open loop), one subscriber that
/// applies every screen's deltas with `StateSync`. Latency is from the moment an input is sent
/// to the moment its delta is applied (matched by the delta's cause), in HdrHistogram.
enum ScaleBench {
  static func run(
    _ transport: BenchProcesses.Transport, screens: Int, rows: Int, columns: Int, remotes: Int,
    rate: Double, seconds: Double, durable: Bool = false, server: BenchProcesses.Server? = nil,
    loadPhase: ((_ starting: Bool) -> Void)? = nil
  ) throws -> ScaleResult {
    let directory = try TemporaryDirectory()
    // Durable: CURVE over TCP with a data directory (the production configuration). A given
    // server (a zone's active broker) is used as it is, and left running.
    let broker =
      try server
      ?? (durable
        ? BenchProcesses.durableBroker(dataDirectory: BenchProcesses.dataDirectory(in: directory))
        : BenchProcesses.broker(transport, in: directory))
    defer { if server == nil { broker.stop() } }
    let contexts = try BenchPeers.contexts(for: remotes + 3)
    defer { for context in contexts { context.shutdown() } }
    let ids = (0..<screens).map { "s\($0)" }
    let subscriber = try BenchPeers.subscriber(
      context: contexts[0], state: broker.state, prefix: "screen/", curve: broker.curve)
    let registrationStart = MonotonicClock.nanoseconds()
    try BenchPeers.register(
      ids, layout: BenchPeers.layout(rows: rows, columns: columns), context: contexts[0],
      control: broker.control, curve: broker.curve)
    let registrationSeconds = Double(MonotonicClock.nanoseconds() - registrationStart) / 1e9
    let afterRegistration = try ProcessStats.read(pid: broker.process.pid)

    var screen = Screens(ids: ids)
    try screen.catchUp(
      subscriber, context: contexts[0], control: broker.control, curve: broker.curve)

    var dealers: [Socket] = []
    for index in 0..<remotes {
      dealers.append(try broker.dealer(contexts[(index + 1) / BenchPeers.socketsPerContext]))
    }
    // Every remote says hello first, as the real one does: connections are set up before the
    // clock starts, so no sample includes a TCP/ipc handshake.
    try hello(dealers)
    loadPhase?(true)
    let before = try ProcessStats.read(pid: broker.process.pid)
    let start = MonotonicClock.nanoseconds()
    let (total, presses) = try drive(
      dealers, screens: ids, into: &screen, subscriber: subscriber, rate: rate, seconds: seconds)
    let elapsed = Double(MonotonicClock.nanoseconds() - start) / 1e9
    let after = try ProcessStats.read(pid: broker.process.pid)
    loadPhase?(false)
    let histogram = screen.latencies
    return ScaleResult(
      transport: durable ? .tcp : transport, durable: durable, screens: screens,
      itemsPerScreen: rows * columns, remotes: remotes,
      inputsPerSecondPerRemote: rate, seconds: (elapsed * 10).rounded() / 10, inputsSent: total,
      pressesSent: presses, pressDeltasApplied: screen.applied,
      brokerRSSMiBAfterRegistration: mebibytes(afterRegistration.residentBytes),
      brokerRSSMiBAtEnd: mebibytes(after.residentBytes),
      brokerCPUPercent: ((after.cpuSeconds - before.cpuSeconds) / elapsed * 1000).rounded() / 10,
      medianMicroseconds: LatencyResult.micro(histogram.valueAtPercentile(50)),
      p99Microseconds: LatencyResult.micro(histogram.valueAtPercentile(99)),
      p999Microseconds: LatencyResult.micro(histogram.valueAtPercentile(99.9)),
      registrationSeconds: (registrationSeconds * 100).rounded() / 100)
  }

  /// Sends `rate` inputs per second per remote for `seconds`, on an absolute schedule (open
  /// loop: a slow broker does not slow the senders), applying deltas as they come, then waits
  /// up to 5 s for the last presses' deltas. Returns the inputs and the presses sent.
  private static func drive(
    _ dealers: [Socket], screens ids: [String], into screen: inout Screens, subscriber: Socket,
    rate: Double, seconds: Double
  ) throws -> (inputs: Int, presses: Int) {
    let remotes = dealers.count
    let senders = (0..<remotes).map { "remote:r\($0)" }
    var sentAt = Array(repeating: [UInt64](repeating: 0, count: 64), count: remotes)
    var seq = [UInt64](repeating: 0, count: remotes)
    screen.latencies.reset()
    screen.senderIndex = Dictionary(uniqueKeysWithValues: senders.enumerated().map { ($1, $0) })

    let interval = UInt64(1e9 / (rate * Double(remotes)))
    let total = Int(rate * Double(remotes) * seconds)
    var presses = 0
    let start = MonotonicClock.nanoseconds()
    var poller = Poller()
    poller.add(subscriber)
    for event in 0..<total {
      let due = start + UInt64(event) * interval
      // Sleep in zmq_poll (which wakes at once for a delta) rather than spin: a busy load
      // generator would take a core from the broker. An input may go out up to ~1 ms late;
      // its latency counts from when it was really sent, and the schedule stays absolute.
      while MonotonicClock.nanoseconds() < due {
        let waitMs = Int((due - min(due, MonotonicClock.nanoseconds())) / 1_000_000)
        try poller.poll(timeout: .milliseconds(max(1, waitMs)))
        try screen.drain(subscriber, sentAt: sentAt)
        if waitMs == 0 { break }
      }
      let remote = event % remotes
      while try dealers[remote].receive(dontWait: true) != nil {}
      seq[remote] += 1
      if seq[remote] % 2 == 1 { presses += 1 }  // Odd inputs are presses (see keyEvent).
      sentAt[remote][Int(seq[remote] % 64)] = MonotonicClock.nanoseconds()
      // The remote's index rides in the sequence number's high bits: a CURVE broker names
      // every input's cause by the sending key (the benchmark remotes share one), not by the
      // sender the message gives.
      try dealers[remote].send(
        BenchPeers.input(
          sender: senders[remote], seq: UInt64(remote) << 40 | seq[remote],
          screen: ids[remote % ids.count]))
      if event.isMultiple(of: 64) { try screen.drain(subscriber, sentAt: sentAt) }
    }
    let deadline = MonotonicClock.nanoseconds() + 5_000_000_000
    while screen.applied < presses && MonotonicClock.nanoseconds() < deadline {
      try poller.poll(timeout: .milliseconds(10))
      try screen.drain(subscriber, sentAt: sentAt)
    }
    return (total, presses)
  }

  private static func hello(_ dealers: [Socket]) throws {
    var hello = Tenfoot_V1_Hello()
    hello.role = .remote
    let request = Tenfoot_V1_Envelope(
      sender: "remote:bench", seq: 0, sentAtNanoseconds: 0, body: .hello(hello)
    ).encoded()
    for dealer in dealers {
      try dealer.send(request)
      var poller = Poller()
      poller.add(dealer)
      try poller.poll(timeout: .seconds(5))
      guard try dealer.receive(dontWait: true) != nil else {
        throw BenchError("a remote got no welcome within 5 s")
      }
    }
  }

  static func mebibytes(_ bytes: Int) -> Double { (Double(bytes) / 1_048_576 * 10).rounded() / 10 }

  /// Every screen's state, kept by the Clone rules from one subscriber.
  private struct Screens {
    var syncs: [String: StateSync]
    var latencies = Histogram<UInt64>(
      highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
    var senderIndex: [String: Int] = [:]
    var applied = 0
    var seen = Set<UInt64>()

    init(ids: [String]) {
      syncs = Dictionary(uniqueKeysWithValues: ids.map { ($0, StateSync(screen: $0)) })
    }

    /// Applies the snapshots registration published, and asks for any that were missed.
    mutating func catchUp(
      _ subscriber: Socket, context: Context, control: String, curve: ClientCurve?
    ) throws {
      try drain(subscriber, sentAt: [])
      let connection = try ControlConnection(
        context: context, endpoint: control, sender: "screen:bench", curve: curve)
      for (id, sync) in syncs where sync.frame == nil {
        var request = Tenfoot_V1_SnapshotRequest()
        request.screenID = id
        guard
          case .snapshot(let snapshot) = try connection.request(
            .snapshotRequest(request), timeout: .seconds(5))
        else { throw BenchError("no snapshot of \(id)") }
        _ = syncs[id]?.apply(snapshot: snapshot)
      }
    }

    mutating func drain(_ subscriber: Socket, sentAt: [[UInt64]]) throws {
      while let frames = try subscriber.receiveMultipart(dontWait: true) {
        guard frames.count == 2 else { continue }
        // As a screen does (`TenFootPath`): a delta in the usual shape straight into its frame.
        if let delta = DeltaFrame(frames[1]) {
          try count(
            syncs[delta.screenID]?.apply(delta: delta), of: delta.screenID, seq: delta.seq,
            cause: delta.cause.sequence, sentAt: sentAt)
          continue
        }
        let envelope = try Tenfoot_V1_Envelope.decode(frames[1])
        switch envelope.body {
        case .delta(let delta):
          try count(
            syncs[delta.screenID]?.apply(delta: delta), of: delta.screenID, seq: delta.seq,
            cause: delta.cause.seq, sentAt: sentAt)
        case .snapshot(let snapshot):
          _ = syncs[snapshot.screenID]?.apply(snapshot: snapshot)
        default: continue
        }
      }
    }

    /// Counts a delta of `screen` that `action` applied, and its press's latency.
    private mutating func count(
      _ action: StateSync.Action?, of screen: String, seq: UInt64, cause: UInt64,
      sentAt: [[UInt64]]
    ) throws {
      guard case .render = action else {
        throw BenchError("delta \(seq) of \(screen) did not apply")
      }
      // Presses (odd seqs) move focus; a release may publish too (a tilt change).
      // Counted once per press, at its first delta.
      let remote = Int(cause >> 40)
      guard cause % 2 == 1, remote < senderIndex.count, seen.insert(cause).inserted else {
        return
      }
      applied += 1
      let sent = sentAt[remote][Int(cause % 64)]
      _ = latencies.record(MonotonicClock.nanoseconds() - sent)
    }
  }
}
