import FocusEngine
import ScreenCore
import TenFootClient
import TenFootProtocol
import TestSupport
import ZeroMQ

/// TenFoot's real path: a remote's DEALER sends an encoded `Input`, the broker runs the engine
/// and publishes a `StateDelta`, and the screen side decodes it and applies it with `StateSync`
/// (the code `tenfoot-screen` runs: a delta in the usual shape read straight into a
/// `DeltaFrame`), exactly as a screen would before rendering.
struct TenFootPath: TwoHopPath {
  private let remote: Socket
  private let subscriber: Socket
  private let screen: ControlConnection
  private let screenID: String
  private var sync: StateSync
  private var seq: UInt64 = 0
  private var lastKey = Tenfoot_V1_Key.right
  /// Sizes seen on the wire, for the floor: input, topic, delta and ack envelopes (bytes).
  private(set) var inputBytes = 0
  private(set) var deltaBytes = 0
  private(set) var ackBytes = 0
  let topic: String
  private let topicBytes: [UInt8]

  /// Registers a 1×2 grid as `screenID`, subscribes, proves the subscription is live (a broker
  /// heartbeat arrived) and applies a snapshot: the Clone start.
  init(context: Context, control: String, state: String, screenID: String) throws {
    self.screenID = screenID
    topic = WireProtocol.stateTopic(screen: screenID)
    topicBytes = Array(topic.utf8)
    subscriber = try Socket(context, .subscriber)
    try subscriber.subscribe(topic)
    try subscriber.subscribe(WireProtocol.heartbeatTopic)
    try subscriber.connect(state)
    screen = try ControlConnection(context: context, endpoint: control, sender: "screen:bench")
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = screenID
    register.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 2))
    guard case .ack = try screen.request(.registerScreen(register), timeout: .seconds(5))
    else { throw BenchError("the broker refused the benchmark layout") }
    remote = try Socket(context, .dealer)
    try remote.connect(control)
    sync = StateSync(screen: screenID)
    try awaitHeartbeat()
    try resync()
  }

  private func awaitHeartbeat() throws {
    let deadline = ContinuousClock.now + .seconds(5)
    repeat {
      while let frames = try subscriber.receiveMultipart(dontWait: true) {
        if frames.first == Array(WireProtocol.heartbeatTopic.utf8) { return }
      }
    } while try subscriber.awaitInput(until: deadline)
    throw BenchError("no broker heartbeat within 5 s: the subscription never became live")
  }

  private mutating func resync() throws {
    var request = Tenfoot_V1_SnapshotRequest()
    request.screenID = screenID
    sync.snapshotRequested()
    guard
      case .snapshot(let snapshot) = try screen.request(
        .snapshotRequest(request), timeout: .seconds(5))
    else { throw BenchError("no snapshot") }
    _ = sync.apply(snapshot: snapshot)
  }

  mutating func send(index: Int) throws {
    lastKey = index.isMultiple(of: 2) ? .right : .left
    try sendKey(lastKey, .down)
  }

  /// Sends one key event (the measured input is the press; its release follows the reply).
  private mutating func sendKey(_ key: Tenfoot_V1_Key, _ phase: Tenfoot_V1_KeyPhase) throws {
    seq += 1
    var input = Tenfoot_V1_Input()
    input.screenID = screenID
    input.key.key = key
    input.key.phase = phase
    input.key.timestampNs = MonotonicClock.nanoseconds()
    let envelope = Tenfoot_V1_Envelope(
      sender: "remote:bench", seq: seq, sentAtNanoseconds: input.key.timestampNs,
      body: .input(input))
    let bytes = envelope.encoded()
    if phase == .down { inputBytes = bytes.count }
    try remote.send(bytes)
  }

  mutating func awaitApplied(timeout: Duration) throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    repeat {
      while let frames = try subscriber.receiveMultipart(dontWait: true) {
        guard frames.count == 2, frames[0] == topicBytes else { continue }
        let action: StateSync.Action
        // As the screen does: a delta in the usual shape straight into the frame.
        if let delta = DeltaFrame(frames[1]) {
          deltaBytes = frames[1].count
          action = sync.apply(delta: delta)
        } else {
          let envelope = try Tenfoot_V1_Envelope.decode(frames[1])
          switch envelope.body {
          case .delta(let delta):
            deltaBytes = frames[1].count
            action = sync.apply(delta: delta)
          case .snapshot(let snapshot): action = sync.apply(snapshot: snapshot)
          default: continue
          }
        }
        switch action {
        case .render(let frame) where frame.seq > 0: return true
        case .resync: try resync()
        default: continue
        }
      }
    } while try subscriber.awaitInput(until: deadline)
    return false
  }

  /// Takes the press's ack, then releases the key as a real remote does and waits until the
  /// release's ack and anything it published have been applied, so the next press starts from
  /// a quiet system.
  mutating func awaitReply(timeout: Duration) throws -> Bool {
    guard let pressAck = try awaitAck(timeout: timeout) else {
      return false
    }
    ackBytes = pressAck.bytes
    try sendKey(lastKey, .up)
    guard let releaseAck = try awaitAck(timeout: timeout) else {
      return false
    }
    while (sync.frame?.seq ?? 0) < releaseAck.stateSeq {
      guard try awaitApplied(timeout: timeout) else { return false }
    }
    return true
  }

  private func awaitAck(timeout: Duration) throws -> (stateSeq: UInt64, bytes: Int)? {
    let deadline = ContinuousClock.now + timeout
    repeat {
      if let frame = try remote.receive(dontWait: true) {
        let reply = try Tenfoot_V1_Envelope.decode(frame)
        guard case .ack(let ack) = reply.body else {
          throw BenchError("input refused: \(reply.bodyName)")
        }
        return (ack.stateSeq, frame.count)
      }
    } while try remote.awaitInput(until: deadline)
    return nil
  }
}
