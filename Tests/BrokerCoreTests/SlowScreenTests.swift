import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

@Suite("A slow screen cannot block the broker")
struct SlowScreenTests {
  @Test("a subscriber that never reads costs dropped deltas, not acks; a live one sees a gap")
  func stalledSubscriber() throws {
    let context = try Context()
    let unique = UUID().uuidString.prefix(8)
    let control = "ipc:///tmp/tf-slow-\(unique)-c"
    let state = "ipc:///tmp/tf-slow-\(unique)-s"
    var configuration = BrokerConfiguration(controlEndpoints: [control], stateEndpoints: [state])
    configuration.stateHighWaterMark = 20
    configuration.peerRate = 1_000_000
    configuration.peerBurst = 1_000_000
    let broker = try BrokerThread(
      configuration: configuration, context: context, logger: Logger(label: "test"))
    defer { broker.stop() }

    // The stalled screen: subscribed, tiny receive queue, never reads.
    let stalled = try Socket(context, .subscriber)
    try stalled.setReceiveHighWaterMark(5)
    try stalled.subscribe("")
    try stalled.connect(state)
    // Live once the first heartbeat arrives; from then on it stops reading.
    var live = Poller()
    live.add(stalled)
    try live.poll(timeout: .seconds(5))
    #expect(try stalled.receiveMultipart(dontWait: true) != nil, "a heartbeat within 5 s")
    let dealer = try Socket(context, .dealer)
    try dealer.connect(control)
    var seq: UInt64 = 0
    func request(_ body: Tenfoot_V1_Envelope.OneOf_Body) throws -> Tenfoot_V1_Envelope {
      seq += 1
      try dealer.send(
        Tenfoot_V1_Envelope(sender: "t", seq: seq, sentAtNanoseconds: 1, body: body).encoded())
      var poller = Poller()
      poller.add(dealer)
      try poller.poll(timeout: .seconds(5))
      return try Tenfoot_V1_Envelope.decode(
        try #require(try dealer.receive(dontWait: true), "no reply within 5 s"))
    }
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "main"
    register.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 2))
    #expect(try request(.registerScreen(register)).bodyName == "ack")

    let started = Date()
    var finalSeq: UInt64 = 0
    for press in 0..<2000 {
      var input = Tenfoot_V1_Input()
      input.screenID = "main"
      input.key = .with {
        $0.key = press.isMultiple(of: 2) ? .right : .left
        $0.phase = .down
      }
      let reply = try request(.input(input))
      guard reply.bodyName == "ack" else {
        Issue.record("press \(press): \(reply)")
        return
      }
      input.key.phase = .up
      if case .ack(let ack) = try request(.input(input)).body { finalSeq = ack.stateSeq }
    }
    let elapsed = Date().timeIntervalSince(started)
    print(
      "slow screen: 4000 requests acknowledged in \(Int(elapsed * 1000)) ms with a stalled subscriber"
    )

    // The stalled subscriber holds at most its queue; when it reads again, the next state it
    // gets is newer than the dropped ones: a sequence gap, which makes a screen resync. The
    // reader presses again until that newer delta arrives (the first may meet a full queue),
    // so the check does not depend on how fast libzmq refills the reader's pipe.
    var received: [UInt64] = []
    func drain(waitMilliseconds: Int) throws {
      var poller = Poller()
      poller.add(stalled)
      let until = Date().addingTimeInterval(Double(waitMilliseconds) / 1000)
      repeat {
        while let frames = try stalled.receiveMultipart(dontWait: true) {
          if frames.count == 2, let envelope = try? Tenfoot_V1_Envelope.decode(frames[1]),
            case .delta(let delta) = envelope.body
          {
            received.append(delta.seq)
          }
        }
        try poller.poll(timeout: .milliseconds(20))
      } while Date() < until
    }
    try drain(waitMilliseconds: 0)
    var newest: UInt64 = 0
    let deadline = Date().addingTimeInterval(10)
    while !received.contains(where: { $0 > finalSeq }) && Date() < deadline {
      var input = Tenfoot_V1_Input()
      input.screenID = "main"
      input.key = .with {
        $0.key = .right
        $0.phase = .down
      }
      _ = try request(.input(input))
      input.key.phase = .up
      if case .ack(let ack) = try request(.input(input)).body { newest = ack.stateSeq }
      try drain(waitMilliseconds: 200)
    }
    #expect(
      received.contains { $0 > finalSeq },
      "the reader gets new state once it reads again (newest \(newest), got \(received.suffix(5)))")
    #expect(received.count < 4000, "the publisher dropped instead of queueing everything")
    let gaps = zip(received, received.dropFirst()).contains { $1 != $0 + 1 }
    #expect(gaps, "a reader that resumes sees a gap and resyncs: \(received.prefix(10))…")
  }
}
