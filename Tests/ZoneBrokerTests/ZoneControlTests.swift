import Foundation
import TenFootStore
import Testing
import ZoneFencing

@testable import ZoneBroker

/// The zone loop's control across threads: its waits end when it is told to stop, and a
/// step-down keeps its first, typed reason.
@Suite("Zone control")
struct ZoneControlTests {
  /// Runs `pause(duration)` on a thread of its own; the result, once it returns.
  final class Pausing: @unchecked Sendable {
    // @unchecked Sendable is sound: `result` is only touched under `done`'s lock.
    private let done = NSCondition()
    private var result: Bool?

    init(_ control: ZoneControl, _ duration: Duration) {
      Thread.detachNewThread { [self] in
        let terminated = control.pause(duration)
        done.lock()
        result = terminated
        done.broadcast()
        done.unlock()
      }
    }

    /// Its result within `seconds`, or nil while it still waits.
    func result(within seconds: Double) -> Bool? {
      let deadline = Date(timeIntervalSinceNow: seconds)
      done.lock()
      defer { done.unlock() }
      while result == nil, done.wait(until: deadline) {}
      return result
    }
  }

  @Test("a standby's pause ends at SIGTERM, not after its interval")
  func terminateEndsPause() {
    let control = ZoneControl()
    let pausing = Pausing(control, .seconds(600))
    #expect(pausing.result(within: 0.2) == nil, "a pause ended before its interval or a signal")
    control.terminate()
    #expect(pausing.result(within: 10) == true, "terminate did not end a 600 s pause")
    #expect(control.pause(.seconds(600)), "a pause after terminate returns at once")
  }

  @Test("a pause ends when the broker is fenced, and says it was not terminated")
  func fenceEndsPause() {
    let control = ZoneControl()
    let pausing = Pausing(control, .seconds(600))
    control.fence(.fenced(Fenced(.lease, store: "postgres://z", term: 4)))
    #expect(pausing.result(within: 10) == false, "fencing did not end a 600 s pause")
  }

  @Test("a pause without a signal lasts its interval")
  func pauseLasts() {
    let control = ZoneControl()
    let clock = ContinuousClock()
    let elapsed = clock.measure { #expect(control.pause(.milliseconds(50)) == false) }
    #expect(elapsed >= .milliseconds(50), "returned after \(elapsed)")
  }

  @Test("the first step-down reason is kept until a new broker serves")
  func firstReasonKept() {
    let control = ZoneControl()
    let failure = Fenced(.sessions, store: "postgres://z", term: 4, current: 5)
    control.fence(.fenced(failure))
    control.fence(.fenced(Fenced(.lease, store: "postgres://z", term: 9)))
    #expect(control.fenceReason == .fenced(failure))
    #expect(control.fenceReason?.description == failure.description)
    #expect(
      failure.description
        == "postgres://z refused a write of term 4 (sessions): the zone's term is now 5 "
        + "(another broker took over)")
    control.serving(nil)
    #expect(control.fenceReason == nil, "serving(nil) clears the fence for the next term")
    #expect(!control.isTerminated)
  }
}
