import Dispatch
import Histogram
import TenFootProtocol
import TestSupport
import ZeroMQ

/// End-to-end latency: remote input sent → screen state applied, TenFoot against the floor.
///
/// One input at a time (closed loop): send, wait until the screen side applied the
/// publication, then take the remote's reply before the next input, so every sample sees an
/// idle system. Percentiles come from HdrHistogram (hdrhistogram-swift, 3 significant digits,
/// nanosecond values): exact to 0.1 % of the value.
enum LatencyBench {
  /// One measured path.
  struct Measurement {
    var result: LatencyResult
    var histogram: Histogram<UInt64>
  }

  /// Runs TenFoot and the floor over `transport`, interleaved sample by sample; the floor
  /// uses the message sizes TenFoot's messages have.
  /// `pause` idles before each sample (see ``BenchPause``).
  static func run(
    _ transport: BenchProcesses.Transport, warmUp: Int, inputs: Int, pause: Duration = .zero
  ) throws -> (tenfoot: Measurement, floor: Measurement) {
    let context = try Context()
    defer { context.shutdown() }
    let directory = try TemporaryDirectory()
    let broker = try BenchProcesses.broker(transport, in: directory)
    defer { broker.stop() }
    var tenfoot = try TenFootPath(
      context: context, control: broker.control, state: broker.state, screenID: "bench")
    // One TenFoot input first, so the floor relay knows the sizes to mimic.
    try sample(&tenfoot, index: 0, what: "tenfoot")
    let floorDirectory = try TemporaryDirectory()
    let relay = try BenchProcesses.floorRelay(
      transport, in: floorDirectory, replyBytes: tenfoot.ackBytes, topic: tenfoot.topic,
      publicationBytes: tenfoot.deltaBytes)
    // SIGKILL: the relay installs no signal handler, and a SIGTERM could stay pending forever
    // when the launching process blocked it (swift test's runner does, and children inherit
    // the signal mask).
    defer { relay.process.kill() }
    var floor = try FloorPath(
      context: context, control: relay.control, state: relay.state, topic: tenfoot.topic,
      inputBytes: tenfoot.inputBytes)
    try subscribe(&floor)

    // Interleaved, one TenFoot sample then one floor sample: whatever else the machine does
    // (other builds on the two cores) lands on both alike.
    var tenfootHistogram = Histogram<UInt64>(
      highestTrackableValue: 10_000_000_000, numberOfSignificantValueDigits: .three)
    var floorHistogram = tenfootHistogram
    for index in 1...(warmUp + inputs) {
      BenchPause.idle(pause)
      let tenfootNanoseconds = try sample(&tenfoot, index: index, what: "tenfoot")
      BenchPause.idle(pause)
      let floorNanoseconds = try sample(&floor, index: index, what: "floor")
      if index > warmUp {
        _ = tenfootHistogram.record(tenfootNanoseconds)
        _ = floorHistogram.record(floorNanoseconds)
      }
    }

    let sizes = MessageSizes(
      input: tenfoot.inputBytes, topic: tenfoot.topic.utf8.count, delta: tenfoot.deltaBytes,
      ack: tenfoot.ackBytes)
    return (
      Measurement(
        result: LatencyResult(
          path: "tenfoot", transport: transport, sizes: sizes, tenfootHistogram),
        histogram: tenfootHistogram),
      Measurement(
        result: LatencyResult(path: "floor", transport: transport, sizes: sizes, floorHistogram),
        histogram: floorHistogram)
    )
  }

  /// The floor relay publishes only in answer to a request, so its subscription is proven by
  /// sending until a publication arrives (ZeroMQ's slow-joiner window), then draining.
  static func subscribe(_ path: inout FloorPath) throws {
    for attempt in 0..<100 {
      try path.send(index: attempt)
      let applied = try path.awaitApplied(timeout: .milliseconds(50))
      guard try path.awaitReply(timeout: .seconds(5)) else {
        throw BenchError("the floor relay did not reply")
      }
      if applied { return }
    }
    throw BenchError("the floor subscription never became live")
  }

  /// One input: send, wait until applied (the sample), then wait for the reply.
  @discardableResult
  static func sample<Path: TwoHopPath>(_ path: inout Path, index: Int, what: String)
    throws -> UInt64
  {
    let start = MonotonicClock.nanoseconds()
    try path.send(index: index)
    guard try path.awaitApplied(timeout: .seconds(5)) else {
      throw BenchError("\(what): input \(index) was not applied within 5 s")
    }
    let elapsed = MonotonicClock.nanoseconds() - start
    guard try path.awaitReply(timeout: .seconds(5)) else {
      throw BenchError("\(what): input \(index) got no reply within 5 s")
    }
    return elapsed
  }
}
