import ScreenCore
import TenFootProtocol
import Testing

/// The screen's timing rules on virtual time: a `ManualClock` moves the screen's loop, a fake
/// broker on real sockets answers, and nothing in the test sleeps.
@Suite("Screen timing on the loop's clock: heartbeats, a lost broker")
struct ScreenTimingTests {
  @Test(
    "the screen beats once per beat interval of the loop's clock, and at a quarter of the broker's grace"
  )
  func heartbeatInterval() throws {
    let harness = try ScreenHarness()
    try harness.start()
    defer { harness.stop() }
    #expect(harness.renderer.await { $0.frameCount >= 1 }, "no snapshot drawn within 5 s")
    func beats() throws -> Int {
      let kinds = try #require(
        harness.probe(), "the probe input did not arrive within 5 s: \(harness.broker.requestKinds)"
      )
      return kinds.filter { $0 == "heartbeat" }.count
    }
    #expect(try beats() == 0)
    harness.clock.advance(by: .milliseconds(999))
    #expect(try beats() == 0, "a heartbeat went before its second was up")
    harness.clock.advance(by: .milliseconds(1))
    #expect(try beats() == 1, "no heartbeat at one second")
    harness.clock.advance(by: .seconds(1))
    #expect(try beats() == 2)
    // A grace of 400 ms: a beat every 100 ms from the broker's heartbeat on.
    #expect(harness.broker.awaitSubscription(WireProtocol.heartbeatTopic), "not subscribed")
    harness.broker.publish(
      topic: WireProtocol.heartbeatTopic,
      .heartbeat(
        .with {
          $0.epoch = 1
          $0.screenGraceMs = 400
        }))
    // The heartbeat reaches the screen some time after the probes: step 100 ms at a time
    // until three steps in a row bring one beat each (at 1 s, three in a row cannot).
    var previous = try beats()
    var singleSteps = 0
    for _ in 0..<30 where singleSteps < 3 {
      harness.clock.advance(by: .milliseconds(100))
      let now = try beats()
      singleSteps = now - previous == 1 ? singleSteps + 1 : 0
      previous = now
    }
    #expect(singleSteps == 3, "no beat every 100 ms within 3 s of a 400 ms grace")
  }

  @Test(
    "a silent broker is shown lost after twice its 1 s heartbeat gap on the loop's clock, and up at its next heartbeat"
  )
  func linkLostAndHeard() throws {
    let harness = try ScreenHarness()
    try harness.start()
    defer { harness.stop() }
    #expect(harness.renderer.await { $0.frameCount >= 1 }, "no snapshot drawn within 5 s")
    // Checked every 250 ms: silent 2 s is not yet more than the 2 s timeout, 2.25 s is.
    harness.clock.advance(by: .milliseconds(2000))
    _ = try #require(
      harness.probe(), "the probe input did not arrive within 5 s: \(harness.broker.requestKinds)")
    #expect(harness.renderer.linkChanges == [], "lost before the broker was silent 2 s")
    harness.clock.advance(by: .milliseconds(250))
    // Lost in the iteration that saw the advance, not after real time passed: no waiting.
    _ = try #require(
      harness.probe(), "the probe input did not arrive within 5 s: \(harness.broker.requestKinds)")
    #expect(
      harness.renderer.linkChanges == [.lost],
      "not lost 2.25 s into the silence: \(harness.renderer.linkChanges) \(harness.broker.requestKinds)"
    )
    #expect(harness.broker.awaitSubscription(WireProtocol.heartbeatTopic), "not subscribed")
    harness.broker.publish(topic: WireProtocol.heartbeatTopic, .heartbeat(.with { $0.epoch = 1 }))
    #expect(
      harness.renderer.await { $0.linkChanges == [.lost, .up] },
      "not up again at the broker's heartbeat: \(harness.renderer.linkChanges)")
  }
}
