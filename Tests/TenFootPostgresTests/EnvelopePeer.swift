import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

/// A test's raw sockets to a broker: envelopes numbered from its own `seq`, and replies read
/// with a bound. Shared by the zone's off-the-loop tests.
protocol EnvelopePeer: AnyObject {
  var seq: UInt64 { get set }
}

extension EnvelopePeer {
  /// Sends `body` on `socket`; returns its seq.
  @discardableResult
  func send(_ body: Tenfoot_V1_Envelope.OneOf_Body, on socket: Socket) throws -> UInt64 {
    seq += 1
    let envelope = Tenfoot_V1_Envelope(sender: "test", seq: seq, sentAtNanoseconds: 1, body: body)
    try socket.send(frames: [envelope.encoded()])
    return seq
  }

  /// The next reply on `socket` within `seconds`, with the seq it answers.
  func reply(on socket: Socket, within seconds: Double = 5) throws
    -> (replyTo: UInt64, body: Tenfoot_V1_Envelope.OneOf_Body)?
  {
    guard let frames = try SocketWait.message(on: socket, within: seconds) else { return nil }
    let envelope = try Tenfoot_V1_Envelope.decode(frames[0])
    return try (envelope.replyTo, #require(envelope.body))
  }
}
