import Dispatch
import TenFootProtocol
import TestSupport
import ZeroMQ

/// Broker throughput: `remotes` remotes, each driving its own screen, each keeping `window`
/// inputs in flight, as fast as the broker answers. One subscriber receives every delta, so
/// the broker's publishing is real work too. The benchmark process shares the two cores with
/// the broker, so this is what one broker sustains beside its load generator.
enum ThroughputBench {
  static func run(
    _ transport: BenchProcesses.Transport, remotes: Int, inputs: Int, window: Int,
    durable: Bool = false
  ) throws -> ThroughputResult {
    let directory = try TemporaryDirectory()
    // Durable: CURVE over TCP with a data directory (the production configuration).
    let broker =
      durable
      ? try BenchProcesses.durableBroker(
        dataDirectory: BenchProcesses.dataDirectory(in: directory))
      : try BenchProcesses.broker(transport, in: directory)
    defer { broker.stop() }
    let contexts = try BenchPeers.contexts(for: remotes + 2)
    defer { for context in contexts { context.shutdown() } }
    let screens = (0..<remotes).map { "t\($0)" }
    try BenchPeers.register(
      screens, layout: BenchPeers.layout(rows: 1, columns: 2), context: contexts[0],
      control: broker.control, curve: broker.curve)
    let subscriber = try BenchPeers.subscriber(
      context: contexts[0], state: broker.state, prefix: "screen/", curve: broker.curve)
    var dealers: [Socket] = []
    for index in 0..<remotes {
      let dealer = try Socket(contexts[(index + 1) / BenchPeers.socketsPerContext], .dealer)
      try dealer.setSendHighWaterMark(100_000)
      try broker.secure(dealer)
      try dealer.connect(broker.control)
      dealers.append(dealer)
    }
    var driver = Driver(dealers: dealers, subscriber: subscriber, screens: screens, window: window)
    try driver.phase(inputs: max(remotes * window, inputs / 10))
    let before = try ProcessStats.read(pid: broker.process.pid)
    driver.deltas = 0
    let start = MonotonicClock.nanoseconds()
    try driver.phase(inputs: inputs)
    let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
    let after = try ProcessStats.read(pid: broker.process.pid)
    try driver.drainDeltas(expected: inputs / 2)  // The presses' deltas.
    return ThroughputResult(
      transport: durable ? .tcp : transport, durable: durable, remotes: remotes, inputs: inputs,
      inputsPerSecond: (Double(inputs) / seconds).rounded(),
      // CPU seconds × 1,000 ms × 1,000 inputs / inputs, to two decimals.
      brokerCPUMillisecondsPer1000Inputs: ((after.cpuSeconds - before.cpuSeconds) * 1e8
        / Double(inputs)).rounded() / 100,
      deltasReceived: driver.deltas)
  }

  /// Keeps `window` inputs in flight per remote until a phase's count is acknowledged.
  private struct Driver {
    let dealers: [Socket]
    let subscriber: Socket
    let screens: [String]
    let window: Int
    var seq: [UInt64]
    var deltas = 0
    var poller = Poller()
    let heartbeat = Array(WireProtocol.heartbeatTopic.utf8)

    init(dealers: [Socket], subscriber: Socket, screens: [String], window: Int) {
      self.dealers = dealers
      self.subscriber = subscriber
      self.screens = screens
      self.window = window
      seq = Array(repeating: 0, count: dealers.count)
      for dealer in dealers { poller.add(dealer) }
      poller.add(subscriber)
    }

    mutating func send(_ remote: Int) throws {
      seq[remote] += 1
      try dealers[remote].send(
        BenchPeers.input(
          sender: "remote:r\(remote)", seq: seq[remote], screen: screens[remote]))
    }

    mutating func phase(inputs: Int) throws {
      var sent = 0
      var acked = 0
      for remote in 0..<dealers.count {
        for _ in 0..<window where sent < inputs {
          try send(remote)
          sent += 1
        }
      }
      let deadline = MonotonicClock.nanoseconds() + 300_000_000_000
      while acked < inputs {
        guard MonotonicClock.nanoseconds() < deadline else {
          throw BenchError("throughput: \(acked) of \(inputs) inputs acknowledged in 300 s")
        }
        try poller.poll(timeout: .seconds(1))
        for remote in 0..<dealers.count where poller.isReadable(remote) {
          while try dealers[remote].receive(dontWait: true) != nil {
            acked += 1
            if sent < inputs {
              try send(remote)
              sent += 1
            }
          }
        }
        while let frames = try subscriber.receiveMultipart(dontWait: true) {
          if frames.first != heartbeat { deltas += 1 }
        }
      }
    }

    /// Reads the deltas still queued (bounded), so the count can be checked against inputs.
    mutating func drainDeltas(expected: Int) throws {
      let deadline = MonotonicClock.nanoseconds() + 2_000_000_000
      var poller = Poller()
      poller.add(subscriber)
      while deltas < expected && MonotonicClock.nanoseconds() < deadline {
        try poller.poll(timeout: .milliseconds(100))
        while let frames = try subscriber.receiveMultipart(dontWait: true) {
          if frames.first != heartbeat { deltas += 1 }
        }
      }
    }
  }
}
