import TenFootProtocol
import ZeroMQ

/// The bare ZeroMQ two hops against `FloorRelay`: a DEALER sends a frame of the TenFoot input's
/// size, a SUB receives the publication; nothing is encoded or decoded.
struct FloorPath: TwoHopPath {
  private let dealer: Socket
  private let subscriber: Socket
  private let input: [UInt8]
  /// After the reply, send a second input and wait for its publication and reply, as TenFoot's
  /// path sends a press's release (the accounting part: the same hops per sample).
  var mimicsRelease = false

  init(context: Context, control: String, state: String, topic: String, inputBytes: Int) throws {
    dealer = try Socket(context, .dealer)
    subscriber = try Socket(context, .subscriber)
    try subscriber.subscribe(topic)
    try subscriber.connect(state)
    try dealer.connect(control)
    input = [UInt8](repeating: 0x2A, count: inputBytes)
  }

  mutating func send(index: Int) throws {
    try dealer.send(input)
  }

  mutating func awaitApplied(timeout: Duration) throws -> Bool {
    try Self.await(subscriber, timeout: timeout)
  }

  mutating func awaitReply(timeout: Duration) throws -> Bool {
    guard try Self.await(dealer, timeout: timeout) else { return false }
    guard mimicsRelease else { return true }
    try dealer.send(input)
    return try Self.await(subscriber, timeout: timeout) && Self.await(dealer, timeout: timeout)
  }

  private static func await(_ socket: Socket, timeout: Duration) throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    repeat {
      if try socket.receiveMultipart(dontWait: true) != nil { return true }
    } while try socket.awaitInput(until: deadline)
    return false
  }
}
