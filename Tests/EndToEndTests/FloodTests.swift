import Foundation
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

/// One remote floods the broker (as fast as a socket can send) while another presses keys; the
/// other remote's key-to-state latency is measured with real sockets against a real broker
/// process. Prints figures; asserts that the flood was throttled and every press was served
/// (speed targets belong in benchmarks, not in pass/fail tests).
@Suite("Flood: a flooding remote is throttled per peer (prints figures)", .serialized)
struct FloodTests {
  final class Peer {
    let dealer: Socket
    var seq: UInt64 = 0
    let name: String
    init(_ context: Context, _ endpoint: String, name: String) throws {
      dealer = try Socket(context, .dealer)
      try dealer.connect(endpoint)
      self.name = name
    }

    func send(_ body: Tenfoot_V1_Envelope.OneOf_Body, dontWait: Bool = false) throws -> Bool {
      seq += 1
      let envelope = Tenfoot_V1_Envelope(
        sender: name, seq: seq, sentAtNanoseconds: MonotonicClock.nanoseconds(), body: body)
      return try dealer.send(envelope.encoded(), dontWait: dontWait)
    }

    static func key(_ key: Tenfoot_V1_Key, _ phase: Tenfoot_V1_KeyPhase = .down)
      -> Tenfoot_V1_Envelope.OneOf_Body
    {
      var input = Tenfoot_V1_Input()
      input.screenID = "main"
      input.key = .with {
        $0.key = key
        $0.phase = phase
        $0.timestampNs = MonotonicClock.nanoseconds()
      }
      return .input(input)
    }
  }

  /// Presses right/left `count` times and returns each press's latency to its state delta (ms).
  static func presses(
    _ count: Int, victim: Peer, subscriber: Socket
  ) throws -> [Double] {
    var samples: [Double] = []
    var poller = Poller()
    poller.add(subscriber)
    var next = MonotonicClock.nanoseconds()
    for press in 0..<count {
      // A person (or a touch surface at 120 Hz) is far below the broker's per-peer budget:
      // pace the presses at one per 2 ms so the victim stays a well-behaved remote.
      while MonotonicClock.nanoseconds() < next { usleep(200) }
      next = MonotonicClock.nanoseconds() + 2_000_000
      let start = MonotonicClock.nanoseconds()
      let key: Tenfoot_V1_Key = press.isMultiple(of: 2) ? .right : .left
      _ = try victim.send(Peer.key(key, .down))
      let seq = victim.seq
      _ = try victim.send(Peer.key(key, .up))
      var seen = false
      while !seen {
        guard MonotonicClock.nanoseconds() - start < 5_000_000_000 else {
          throw ChildProcessError(description: "press \(press): no state delta within 5 s")
        }
        try poller.poll(timeoutMilliseconds: 100)
        while let frames = try subscriber.receiveMultipart(dontWait: true) {
          guard frames.count == 2, let envelope = try? Tenfoot_V1_Envelope.decode(frames[1]),
            case .delta(let delta) = envelope.body
          else { continue }
          if delta.cause.sender == victim.name && delta.cause.seq == seq { seen = true }
        }
      }
      samples.append(Double(MonotonicClock.nanoseconds() - start) / 1_000_000)
      while try victim.dealer.receive(dontWait: true) != nil {}  // acks
    }
    return samples
  }

  static func summary(_ samples: [Double]) -> String {
    let sorted = samples.sorted()
    func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
    return String(
      format: "p50 %.3f ms, p99 %.3f ms, max %.3f ms", at(0.5), at(0.99), sorted.last ?? 0)
  }

  @Test("another remote's key-to-state latency while one remote floods")
  func flood() throws {
    let stack = try Stack(.ipc)
    let context = try Context()
    let subscriber = try Socket(context, .subscriber)
    try subscriber.subscribe(WireProtocol.stateTopic(screen: "main"))
    try subscriber.subscribe(WireProtocol.heartbeatTopic)
    try subscriber.connect(stack.state)
    // The subscription is live once a heartbeat arrives: nothing published later is missed.
    var heartbeat = Poller()
    heartbeat.add(subscriber)
    try heartbeat.poll(timeoutMilliseconds: 5000)
    #expect(try subscriber.receiveMultipart(dontWait: true) != nil, "a heartbeat within 5 s")
    let victim = try Peer(context, stack.control, name: "victim")
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "main"
    register.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 2))
    _ = try victim.send(.registerScreen(register))
    var poller = Poller()
    poller.add(victim.dealer)
    try poller.poll(timeoutMilliseconds: 5000)
    #expect(try victim.dealer.receive(dontWait: true) != nil, "registered")
    _ = try Self.presses(20, victim: victim, subscriber: subscriber)  // Warm up.

    let quiet = try Self.presses(300, victim: victim, subscriber: subscriber)

    let stop = StopFlag()
    let counts = Counts()
    let endpoint = stack.control
    let flooder = Thread {
      do {
        let peer = try Peer(context, endpoint, name: "flooder")
        var sent = 0
        var limited = 0
        while !stop.isSet {
          let phase: Tenfoot_V1_KeyPhase = sent.isMultiple(of: 2) ? .down : .up
          if try peer.send(Peer.key(.up, phase), dontWait: true) { sent += 1 }
          while let reply = try peer.dealer.receive(dontWait: true) {
            if let envelope = try? Tenfoot_V1_Envelope.decode(reply),
              case .error(let error) = envelope.body,
              error.code == .rateLimited
            {
              limited += 1
            }
          }
        }
        counts.set(sent: sent, limited: limited)
      } catch {
        counts.set(sent: -1, limited: -1)
      }
    }
    let floodStart = Date()
    flooder.start()
    Thread.sleep(forTimeInterval: 0.3)  // Let the flood build up before measuring.
    let flooded = try Self.presses(300, victim: victim, subscriber: subscriber)
    stop.set()
    while !counts.done { Thread.sleep(forTimeInterval: 0.01) }
    let duration = Date().timeIntervalSince(floodStart)
    print("flood: quiet      \(Self.summary(quiet))")
    print("flood: flooding   \(Self.summary(flooded))")
    print(
      "flood: the flooder sent \(counts.sent) messages in \(String(format: "%.1f", duration)) s (\(Int(Double(counts.sent) / duration))/s); \(counts.limited) answered rate_limited"
    )
    #expect(flooded.count == 300)
    #expect(counts.sent > 0 && counts.limited > 0, "the flood was throttled")
    #expect(stack.broker.output.allSatisfy { !$0.contains("fatal") })
  }
}

/// The flooder thread's totals.
final class Counts: @unchecked Sendable {
  // @unchecked Sendable is sound: every field is touched under `lock`.
  private let lock = NSLock()
  private var values: (sent: Int, limited: Int)?
  func set(sent: Int, limited: Int) { lock.withLock { values = (sent, limited) } }
  var done: Bool { lock.withLock { values != nil } }
  var sent: Int { lock.withLock { values?.sent ?? 0 } }
  var limited: Int { lock.withLock { values?.limited ?? 0 } }
}
