import FocusEngine
import TenFootClient
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

/// `InputSender` over a real DEALER and ROUTER, on a loop the test drives with virtual time:
/// one input in flight at a time, in order; a refusal drops one event, no answer drops the
/// events behind it too, and a full backlog drops its oldest.
@Suite("Input sent one request at a time")
struct InputSenderTests {
  /// A broker's ROUTER, a sender on a connection to it, and what the sender reported dropped.
  final class Harness {
    let loop: EventLoop
    let pair: ControlRequestsTests.Pair
    var failures: [String] = []
    var sender: InputSender!

    init(timeout: Duration = .seconds(60)) throws {
      loop = try EventLoop(clock: .manual(ManualClock()))
      pair = try ControlRequestsTests.Pair(context: try Context(), loop: loop)
      sender = InputSender(screenID: "main", timeout: timeout, loop: loop) {
        [unowned self] failure in
        switch failure {
        case .refused(let refusal): failures.append("refused \(refusal.message)")
        case .undelivered(_, let dropped): failures.append("undelivered \(dropped)")
        }
      }
      sender.attach(pair.requests)
    }

    /// Queues text inputs "a", "b", … as one batch.
    func enqueue(_ texts: [String]) {
      sender.enqueue(texts.map { text in .text(.set(text)) })
    }

    /// The next input the broker received (its text) and its routing frame and seq; nil if
    /// none came within `seconds`.
    func received(within seconds: Double = 5) throws -> (
      text: String, peer: [UInt8], seq: UInt64
    )? {
      guard let frames = try SocketWait.message(on: pair.broker, within: seconds) else {
        return nil
      }
      let request = try Tenfoot_V1_Envelope.decode(frames[1])
      guard case .input(let input) = request.body, case .text(let edit) = input.event else {
        Issue.record("not a text input: \(request)")
        return nil
      }
      #expect(input.screenID == "main")
      return (edit.set, frames[0], request.seq)
    }

    /// Answers a request with `body` and runs the loop once the reply is readable.
    func answer(
      _ request: (text: String, peer: [UInt8], seq: UInt64),
      _ body: Tenfoot_V1_Envelope.OneOf_Body = .ack(.init())
    ) throws {
      let reply = Tenfoot_V1_Envelope(
        sender: "broker", seq: 1, sentAtNanoseconds: 1, replyTo: request.seq, body: body)
      try pair.broker.send(frames: [request.peer, reply.encoded()])
      _ = try pair.connection.socket.awaitInput(until: .now + .seconds(5))
      try loop.advance(by: .zero)
    }
  }

  @Test("inputs go out one at a time, in order, each once the one before was answered")
  func oneAtATimeInOrder() throws {
    let harness = try Harness()
    harness.enqueue(["a", "b"])
    harness.enqueue(["c"])
    var texts: [String] = []
    for _ in 0..<3 {
      let request = try #require(try harness.received(), "after \(texts)")
      texts.append(request.text)
      #expect(
        try harness.received(within: 0.1) == nil, "a second input went out before \(texts)")
      #expect(harness.sender.outstanding == 3 - texts.count + 1)
      try harness.answer(request)
    }
    #expect(texts == ["a", "b", "c"])
    #expect(harness.sender.outstanding == 0)
    #expect(harness.failures.isEmpty, "\(harness.failures)")
  }

  @Test("a refused input is dropped alone: the next goes out")
  func refusalDropsOne() throws {
    let harness = try Harness()
    harness.enqueue(["a", "b"])
    let a = try #require(try harness.received())
    try harness.answer(
      a,
      .error(
        .with {
          $0.code = .invalidInput
          $0.message = "no"
        }))
    #expect(harness.failures == ["refused no"])
    let b = try #require(try harness.received(), "b did not go out after a was refused")
    #expect(b.text == "b")
  }

  @Test("an unanswered input is dropped at its deadline with those behind it; later input goes out")
  func noAnswerDropsTheBacklog() throws {
    let harness = try Harness(timeout: .seconds(3))
    harness.enqueue(["a", "b", "c"])
    let a = try #require(try harness.received())
    #expect(a.text == "a")
    try harness.loop.advance(by: .milliseconds(2999))
    #expect(harness.failures.isEmpty, "dropped before its deadline: \(harness.failures)")
    try harness.loop.advance(by: .milliseconds(1))
    #expect(harness.failures == ["undelivered 3"])
    #expect(harness.sender.outstanding == 0)
    #expect(try harness.received(within: 0.1) == nil, "b or c replayed late")
    // A late reply to a changes nothing; the next input goes out.
    try harness.answer(a)
    harness.enqueue(["d"])
    #expect(try harness.received()?.text == "d")
  }

  @Test("past its capacity the backlog drops its oldest events")
  func capacityDropsOldest() throws {
    let harness = try Harness()
    let texts = (0...InputSender.capacity).map { "\($0)" }
    harness.enqueue(texts)
    #expect(harness.sender.outstanding == InputSender.capacity)
    #expect(try harness.received()?.text == "1", "event 0 was the one over capacity")
  }

  @Test("attached to a new connection, the input in flight on the old one is forgotten")
  func attachReplacesConnection() throws {
    let harness = try Harness()
    harness.enqueue(["a", "b"])
    let a = try #require(try harness.received())
    #expect(a.text == "a")
    harness.pair.requests.close()
    let second = try ControlRequestsTests.Pair(context: try Context(), loop: harness.loop)
    harness.sender.attach(second.requests)
    let frames = try #require(try SocketWait.message(on: second.broker, within: 5))
    let request = try Tenfoot_V1_Envelope.decode(frames[1])
    guard case .input(let input) = request.body, case .text(let edit) = input.event else {
      Issue.record("not a text input: \(request)")
      return
    }
    #expect(edit.set == "b")
    #expect(harness.failures.isEmpty, "\(harness.failures)")
  }

  @Test(
    "an input the broker took with it when it closed its connection fails at once: input after its restart goes out without waiting out its deadline"
  )
  func brokerClosedConnection() throws {
    let directory = try TemporaryDirectory()
    let endpoint = "ipc://\(directory.path)/control"
    let context = try Context()
    var broker = try Socket(context, .router)
    try broker.bind(endpoint)
    let loop = try EventLoop(clock: .manual(ManualClock()))
    let connection = try ControlConnection(context: context, endpoint: endpoint, sender: "test")
    try connection.awaitConnected(until: .now + .seconds(5))
    let requests = try ControlRequests(connection: connection, loop: loop)
    var failures: [String] = []
    // A minute's deadline on the manual clock, never reached below.
    let sender = InputSender(screenID: "main", timeout: .seconds(60), loop: loop) { failure in
      if case .undelivered(let error, let dropped) = failure, error.isNoAnswer {
        failures.append("undelivered \(dropped)")
      } else {
        failures.append("\(failure)")
      }
    }
    sender.attach(requests)
    sender.enqueue([.text(.set("a")), .text(.set("b"))])
    #expect(try SocketWait.message(on: broker, within: 5) != nil, "a did not reach the broker")

    // The broker stops with a unanswered: its connection closes.
    broker.close()
    let events = try connection.watchLink()
    #expect(try events.awaitInput(until: .now + .seconds(5)), "no event on the connection")
    try loop.advance(by: .zero)
    try loop.advance(by: .zero)
    #expect(failures == ["undelivered 2"], "a (and b behind it) still wait for a's deadline")

    // c, made before a broker is back, waits for its handshake (not down the connection
    // that closed), tried again every 10 ms of the loop's clock: the clock moves in small
    // steps, 20 s in all at most, far from a's 60 s.
    sender.enqueue([.text(.set("c"))])
    try loop.advance(by: .milliseconds(10))
    broker = try Socket(context, .router)
    try broker.bind(endpoint)
    var received: [[UInt8]]?
    for _ in 0..<2000 where received == nil {
      try loop.advance(by: .milliseconds(10))
      received = try SocketWait.message(on: broker, within: 0.01)
    }
    let frames = try #require(received, "c did not go out: it waits behind a")
    let request = try Tenfoot_V1_Envelope.decode(frames[1])
    guard case .input(let input) = request.body, case .text(let edit) = input.event else {
      Issue.record("not a text input: \(request)")
      return
    }
    #expect(edit.set == "c")
    broker.close()
  }
}
