import TenFootProtocol
import ZeroMQ

/// The bare ZeroMQ two hops against `FloorRelay`: a DEALER sends a frame of the TenFoot input's
/// size, a SUB receives the publication; nothing is encoded or decoded.
struct FloorPath: TwoHopPath {
  private let dealer: Socket
  private let subscriber: Socket
  private let input: [UInt8]

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

  mutating func awaitApplied(timeoutMilliseconds: Int) throws -> Bool {
    try Self.await(subscriber, timeoutMilliseconds: timeoutMilliseconds)
  }

  mutating func awaitReply(timeoutMilliseconds: Int) throws -> Bool {
    try Self.await(dealer, timeoutMilliseconds: timeoutMilliseconds)
  }

  private static func await(_ socket: Socket, timeoutMilliseconds: Int) throws -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
    repeat {
      if try socket.receiveMultipart(dontWait: true) != nil { return true }
    } while try socket.awaitInput(until: deadline)
    return false
  }
}
