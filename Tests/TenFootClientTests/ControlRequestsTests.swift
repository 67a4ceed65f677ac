import TenFootClient
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

/// `ControlRequests` over a real DEALER and ROUTER (loopback TCP), on a loop the test drives with
/// virtual time: a reply comes back as a loop event, and `close()` (a connection replaced, a
/// phone session ended) drops what was in flight, so nothing runs against a closed connection.
@Suite("Control requests as loop events")
struct ControlRequestsTests {
  /// What the completions saw, in order.
  final class Answers {
    var list: [String] = []
  }

  /// A broker's ROUTER and a connection to it with its requests on `loop`.
  struct Pair {
    let broker: Socket
    let connection: ControlConnection
    let requests: ControlRequests

    init(context: Context, loop: EventLoop) throws {
      broker = try Socket(context, .router)
      // TCP: its handshake is reported (`awaitConnected` waits for it); inproc's is not.
      try broker.bind("tcp://127.0.0.1:*")
      let endpoint = try broker.lastEndpoint
      connection = try ControlConnection(context: context, endpoint: endpoint, sender: "test")
      try connection.awaitConnected(until: .now + .seconds(5))
      requests = try ControlRequests(connection: connection, loop: loop)
    }

    /// Answers the next request with a welcome; returns the request's seq.
    func answer() throws -> UInt64 {
      let frames = try #require(try SocketWait.message(on: broker, within: 5), "no request")
      let request = try Tenfoot_V1_Envelope.decode(frames[1])
      let reply = Tenfoot_V1_Envelope(
        sender: "broker", seq: 1, sentAtNanoseconds: 1, replyTo: request.seq,
        body: .welcome(.init()))
      try broker.send(frames: [frames[0], reply.encoded()])
      return request.seq
    }
  }

  @Test("a reply runs its completion on the loop; after close() a late reply runs none")
  func closeDropsRequests() throws {
    let context = try Context()
    let loop = try EventLoop(clock: .manual(ManualClock()))
    let answers = Answers()
    let first = try Pair(context: context, loop: loop)
    first.requests.send(.hello(.init()), timeout: .seconds(60)) { result in
      answers.list.append("first \(result)")
    }
    let seq = try first.answer()
    #expect(seq == 1)
    _ = try first.connection.socket.awaitInput(until: .now + .seconds(5))
    try loop.advance(by: .zero)
    #expect(answers.list.count == 1, "the reply ran no completion")

    first.requests.send(.hello(.init()), timeout: .seconds(60)) { result in
      answers.list.append("dropped \(result)")
    }
    _ = try first.answer()
    _ = try first.connection.socket.awaitInput(until: .now + .seconds(5))
    first.requests.close()
    #expect(first.requests.outstanding == 0)
    // Past the request's deadline: neither the reply nor the timeout runs its completion.
    try loop.advance(by: .seconds(61))
    #expect(answers.list.count == 1, "\(answers.list)")
    // The socket is no longer polled: its reply is still queued, unread.
    #expect(try first.connection.nextReply() != nil, "the closed connection's reply was read")
    // Nothing more is sent on a closed one; a fresh connection on the same loop works.
    first.requests.send(.hello(.init()), timeout: .seconds(1)) { _ in
      answers.list.append("after close")
    }
    #expect(try SocketWait.message(on: first.broker, within: 0.1) == nil, "sent after close")
    let second = try Pair(context: context, loop: loop)
    second.requests.send(.hello(.init()), timeout: .seconds(60)) { result in
      answers.list.append("second \(result)")
    }
    _ = try second.answer()
    _ = try second.connection.socket.awaitInput(until: .now + .seconds(5))
    try loop.advance(by: .zero)
    #expect(answers.list.count == 2)
    #expect(answers.list.last?.hasPrefix("second ") == true)
  }
}
