import FocusEngine
import Foundation
import TenFootClient
import TenFootProtocol
import TestSupport
import ZeroMQ

/// Helpers the load benchmarks share: contexts that hold many sockets, screen registration,
/// input encoding and a live subscription.
enum BenchPeers {
  /// libzmq's default limit is 1,023 sockets per context: spread remotes over several.
  static let socketsPerContext = 500

  /// Enough contexts for `sockets` sockets.
  static func contexts(for sockets: Int) throws -> [Context] {
    try (0..<max(1, (sockets + socketsPerContext - 1) / socketsPerContext)).map { _ in
      try Context()
    }
  }

  /// Raises this process's open-file limit to the hard limit (1,000 remotes need ~3,000
  /// descriptors here and in the broker, which inherits the limit).
  static func raiseFileLimit() {
    var limit = rlimit()
    if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
      limit.rlim_cur = limit.rlim_max
      setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
  }

  /// A `rows`×`columns` grid layout on the wire.
  static func layout(rows: Int, columns: Int) -> Tenfoot_V1_Layout {
    Tenfoot_V1_Layout(TestLayouts.grid(rows: rows, columns: columns))
  }

  /// A poster grid of `count` items declared as one virtual group (1,000 columns of 200×100
  /// posters in a scrolling group), as a catalog or an EPG registers it.
  static func virtualLayout(count: Int) -> Tenfoot_V1_Layout {
    var group = Group(
      id: "grid", scroll: .both, viewport: Rect(x: 100, y: 200, width: 1720, height: 800))
    group.virtual = VirtualItems(
      count: count, origin: Point(x: 100, y: 200), itemSize: Size(width: 200, height: 100),
      spacing: Size(width: 20, height: 20), arrangement: .grid(columns: min(count, 1000)),
      titlePrefix: "Title ")
    return Tenfoot_V1_Layout(Layout(items: [], groups: [group]))
  }

  /// Registers `ids` with `layout`, pipelining up to 64 requests on one DEALER.
  static func register(
    _ ids: [String], layout: Tenfoot_V1_Layout, context: Context, control: String,
    curve: ClientCurve? = nil
  ) throws {
    let dealer = try Socket(context, .dealer)
    defer { dealer.close() }
    if let curve { try dealer.setCurveClient(serverKey: curve.brokerKey, keyPair: curve.keyPair) }
    try dealer.connect(control)
    var poller = Poller()
    poller.add(dealer)
    var sent = 0
    var acked = 0
    var request = Tenfoot_V1_RegisterScreen()
    request.layout = layout
    while acked < ids.count {
      while sent < ids.count && sent - acked < 64 {
        request.screenID = ids[sent]
        sent += 1
        let envelope = Tenfoot_V1_Envelope(
          sender: "screen:bench", seq: UInt64(sent), sentAtNanoseconds: 0,
          body: .registerScreen(request))
        // A layout larger than the broker's message limit goes in parts.
        for frame in MessageParts.frames(of: envelope) ?? [] { try dealer.send(frame) }
      }
      try poller.poll(timeout: .seconds(10))
      guard poller.isReadable(0) else { throw BenchError("registration: no reply in 10 s") }
      while let frame = try dealer.receive(dontWait: true) {
        guard case .ack = try Tenfoot_V1_Envelope.decode(frame).body else {
          throw BenchError("registration refused")
        }
        acked += 1
      }
    }
  }

  /// The key event a remote sends as its `seq`-th input (1-based): presses and releases
  /// alternate (odd: down, even: up), and the presses alternate right and left, so every press
  /// moves focus and publishes a delta.
  static func keyEvent(seq: UInt64) -> (key: Tenfoot_V1_Key, phase: Tenfoot_V1_KeyPhase) {
    let press = (seq - 1) / 2
    return (press.isMultiple(of: 2) ? .right : .left, seq % 2 == 1 ? .down : .up)
  }

  /// The encoded `Input` envelope of a remote's `seq`-th input (see `keyEvent(seq:)`).
  static func input(sender: String, seq: UInt64, screen: String) -> [UInt8] {
    var input = Tenfoot_V1_Input()
    input.screenID = screen
    (input.key.key, input.key.phase) = keyEvent(seq: seq)
    input.key.timestampNs = MonotonicClock.nanoseconds()
    return Tenfoot_V1_Envelope(
      sender: sender, seq: seq, sentAtNanoseconds: input.key.timestampNs, body: .input(input)
    ).encoded()
  }

  /// A SUB subscribed to `prefix` and the broker heartbeat, returned once a heartbeat proved
  /// the subscription live.
  static func subscriber(
    context: Context, state: String, prefix: String, curve: ClientCurve? = nil
  ) throws -> Socket {
    let subscriber = try Socket(context, .subscriber)
    if let curve {
      try subscriber.setCurveClient(serverKey: curve.brokerKey, keyPair: curve.keyPair)
    }
    try subscriber.setReceiveHighWaterMark(100_000)
    try subscriber.subscribe(prefix)
    try subscriber.subscribe(WireProtocol.heartbeatTopic)
    try subscriber.connect(state)
    var poller = Poller()
    poller.add(subscriber)
    let heartbeat = Array(WireProtocol.heartbeatTopic.utf8)
    let deadline = MonotonicClock.nanoseconds() + 5_000_000_000
    while MonotonicClock.nanoseconds() < deadline {
      try poller.poll(timeout: .milliseconds(100))
      while let frames = try subscriber.receiveMultipart(dontWait: true) {
        if frames.first == heartbeat { return subscriber }
      }
    }
    throw BenchError("no broker heartbeat within 5 s: the subscription never became live")
  }
}
