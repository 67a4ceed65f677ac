import TenFootProtocol
import Testing

@Suite("Monotonic instants: Duration arithmetic over the wire's nanoseconds")
struct MonotonicInstantTests {
  @Test("adding and subtracting durations moves by whole nanoseconds")
  func arithmetic() {
    let start = MonotonicInstant(nanoseconds: 5_000_000_000)
    #expect((start + .milliseconds(120)).nanoseconds == 5_120_000_000)
    #expect((start - .seconds(2)).nanoseconds == 3_000_000_000)
    #expect((start + .seconds(0.05)).nanoseconds == 5_050_000_000)
    var tick = start
    tick += .milliseconds(50)
    tick += .milliseconds(50)
    #expect(tick - start == .milliseconds(100))
    #expect(start - tick == .zero - .milliseconds(100), "an earlier instant gives a negative span")
    #expect(start < tick && !(tick < start))
  }

  @Test("the clock's range holds: before its origin is the origin, past its end is its end")
  func clamped() {
    #expect((MonotonicInstant(nanoseconds: 10) - .seconds(1)).nanoseconds == 0)
    #expect((MonotonicInstant(nanoseconds: .max - 1) + .seconds(1)).nanoseconds == .max)
    #expect((MonotonicInstant(nanoseconds: 0) + .seconds(Int64.max)).nanoseconds == .max)
  }

  @Test("now is the monotonic clock's now")
  func now() {
    let before = MonotonicClock.nanoseconds()
    let now = MonotonicClock.now
    let after = MonotonicClock.nanoseconds()
    #expect(before <= now.nanoseconds && now.nanoseconds <= after)
  }
}
