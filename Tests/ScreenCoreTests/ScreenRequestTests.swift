import ScreenCore
import TenFootProtocol
import Testing

/// The screen's control requests do not block its loop: against a broker that holds its
/// replies (a real ROUTER that answers late), the screen keeps drawing, and a request that
/// times out does so as an event on the loop's clock.
@Suite("Screen requests as loop events")
struct ScreenRequestTests {
  /// A delta of the fake broker's 1×3 grid moving focus to `focused`.
  func delta(seq: UInt64, focused: String) -> Tenfoot_V1_Envelope.OneOf_Body {
    .delta(
      .with {
        $0.screenID = "main"
        $0.epoch = 1
        $0.seq = seq
        $0.focused = focused
      })
  }

  @Test("a frame is drawn while a heartbeat waits for the broker's reply")
  func drawsWhileHeartbeatOutstanding() throws {
    // A minute's timeout: a screen that waited for the reply would draw nothing for a minute.
    let harness = try ScreenHarness(requestTimeout: .seconds(60))
    try harness.start()
    defer { harness.stop() }
    #expect(harness.renderer.await { $0.frameCount >= 1 }, "no snapshot drawn within 5 s")
    harness.broker.hold(["heartbeat"])
    harness.clock.advance(by: .seconds(1))
    #expect(
      harness.broker.awaitRequest { Self.isHeartbeat($0) } != nil, "no heartbeat within 5 s")
    let topic = WireProtocol.stateTopic(screen: "main")
    #expect(harness.broker.awaitSubscription(topic), "not subscribed to \(topic)")
    harness.broker.publish(topic: topic, delta(seq: 2, focused: "r0c1"))
    #expect(
      harness.renderer.await { $0.frameSeqs.contains(2) },
      "the delta was not drawn while the heartbeat was outstanding: \(harness.renderer.frameSeqs)")
    // And inputs still go out behind it.
    #expect(harness.probe() != nil, "an input did not go out while the heartbeat was outstanding")
  }

  @Test("an unanswered input times out on the loop's clock, and the next input goes out")
  func inputTimeoutIsAnEvent() throws {
    // A minute's timeout on the manual clock: a screen that waited in real time for the
    // reply would send nothing more for a minute.
    let harness = try Self.inputAOutstanding()
    defer { harness.stop() }
    harness.clock.advance(by: .seconds(60))
    // The first heartbeat goes out in the iteration that fires a's timeout (the beat is due
    // first): c, queued after it arrived, goes out behind nothing.
    #expect(
      harness.broker.awaitRequest { Self.isHeartbeat($0) } != nil,
      "no heartbeat at the 60 s advance while a was outstanding")
    harness.input("c")
    let before = harness.broker.awaitRequest { Self.isInput($0, "c") }
    #expect(before != nil, "c did not go out after a timed out on the loop's clock")
    // The late reply to a is dropped; the screen goes on.
    harness.broker.releaseHeld()
    #expect(harness.probe() != nil, "the screen stopped sending after a late reply")
  }

  @Test(
    "an input the broker took with it when it stopped fails at once: inputs after its restart go out without waiting out its timeout"
  )
  func inputToAStoppedBrokerFailsAtOnce() throws {
    // A minute's timeout on the manual clock, never reached below: a screen that waited for
    // a's deadline would hold b behind it.
    let harness = try Self.inputAOutstanding()
    defer { harness.stop() }
    try harness.restartBroker()
    // The screen resyncs with the new broker; a request made before its control connection
    // is up again waits for a retry on the loop's clock, so the clock moves in small steps
    // (5 s in all, far from a's 60 s).
    var resynced = false
    for _ in 0..<500 where !resynced {
      harness.clock.advance(by: .milliseconds(10))
      resynced =
        harness.broker.awaitRequest(timeout: .milliseconds(10)) {
          if case .snapshotRequest = $0.body { return true }
          return false
        } != nil
    }
    #expect(resynced, "the screen did not resync with the restarted broker")
    harness.input("b")
    #expect(
      harness.broker.awaitRequest { Self.isInput($0, "b") } != nil,
      "b did not go out: it waits behind a, which the stopped broker will never answer")
  }

  /// A started screen with a request timeout of a minute on its manual clock, whose input
  /// "a" reached the broker, which holds its reply (and every input's).
  static func inputAOutstanding() throws -> ScreenHarness {
    let harness = try ScreenHarness(requestTimeout: .seconds(60))
    try harness.start()
    #expect(harness.renderer.await { $0.frameCount >= 1 }, "no snapshot drawn within 5 s")
    harness.broker.hold(["input"])
    harness.input("a")
    #expect(harness.broker.awaitRequest { Self.isInput($0, "a") } != nil, "a did not arrive")
    return harness
  }

  static func isHeartbeat(_ envelope: Tenfoot_V1_Envelope) -> Bool {
    if case .heartbeat = envelope.body { return true }
    return false
  }

  static func isInput(_ envelope: Tenfoot_V1_Envelope, _ text: String) -> Bool {
    guard case .input(let input) = envelope.body, case .text(let edit) = input.event else {
      return false
    }
    return edit.set == text
  }
}
