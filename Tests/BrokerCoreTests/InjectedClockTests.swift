import BrokerDomain
import FocusEngine
import Foundation
import TenFootProtocol
import TestSupport
import Testing

@testable import BrokerCore

/// A clock the test moves by hand, read by the broker's loop thread.
final class ManualClock: @unchecked Sendable {
  // @unchecked: `instant` is only read and written under `lock`.
  private let lock = NSLock()
  private var instant = BrokerInstant.origin + .seconds(1000)

  /// The broker clock that reads this one.
  var clock: BrokerClock { BrokerClock { [self] in now } }

  var now: BrokerInstant { lock.withLock { instant } }

  func advance(by duration: Duration) { lock.withLock { instant = instant + duration } }
}

/// The broker's time-dependent rules run on the clock its configuration injects, not on the
/// machine's: with the clock stopped, time does not pass for them.
@Suite("Broker rules on an injected clock")
struct InjectedClockTests {
  @Test("flood control: a stopped clock refills no budget; a second on it refills one message")
  func floodBudgetFollowsTheClock() throws {
    let time = ManualClock()
    let harness = try BrokerLoopTests.Harness(transport: "inproc") {
      $0.clock = time.clock
      $0.peerRate = 1
      $0.peerBurst = 3
    }
    for _ in 0..<3 {
      #expect(try harness.request(.hello(.init())).bodyName == "welcome")
    }
    // Real time passes while the test runs; the broker's clock does not.
    let refused = try harness.request(.hello(.init()))
    guard case .error(let error) = refused.body else {
      Issue.record("expected RATE_LIMITED, got \(refused.bodyName)")
      return
    }
    #expect(error.code == .rateLimited)
    time.advance(by: .seconds(1))
    #expect(try harness.request(.hello(.init())).bodyName == "welcome")
  }

  @Test("screen expiry: a screen silent for the grace period on the clock is dropped")
  func screenExpiryFollowsTheClock() throws {
    let time = ManualClock()
    let harness = try BrokerLoopTests.Harness(transport: "inproc") {
      $0.clock = time.clock
      $0.screenGrace = .seconds(30)
    }
    try harness.waitUntilSubscribed()
    _ = try harness.register(TestLayouts.grid(rows: 2, columns: 2))
    // Heartbeats come every 100 ms for the first seconds: two of them, and the screen stays.
    try awaitHeartbeats(2, harness)
    #expect(try screens(harness) == ["main"], "no time passed on the broker's clock")
    time.advance(by: .seconds(31))
    try awaitHeartbeats(2, harness)
    #expect(try screens(harness) == [], "dropped once the clock passed the grace")
  }

  private func awaitHeartbeats(_ count: Int, _ harness: BrokerLoopTests.Harness) throws {
    var seen = 0
    while seen < count {
      if try harness.nextPublished().topic == WireProtocol.heartbeatTopic { seen += 1 }
    }
  }

  private func screens(_ harness: BrokerLoopTests.Harness) throws -> [String] {
    let reply = try harness.request(.hello(.init()))
    guard case .welcome(let welcome) = reply.body else {
      Issue.record("expected welcome, got \(reply.bodyName)")
      return []
    }
    return welcome.screens
  }
}
