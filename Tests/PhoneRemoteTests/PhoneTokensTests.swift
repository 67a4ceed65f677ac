import Synchronization
import Testing

@testable import PhoneRemote

/// The phone remote's one-time tokens: one phone per token, 5 minutes unused at most, and a
/// second use refused with the reason.
@Suite("Phone remote tokens")
struct PhoneTokensTests {
  /// Tokens "t1", "t2", … in order.
  static func numbered() -> @Sendable () -> String {
    let next = Mutex(0)
    return {
      next.withLock { value in
        value += 1
        return "t\(value)"
      }
    }
  }

  @Test("a token lets one phone in; the second use is refused as used; a fresh token replaces it")
  func oneUse() {
    let start = ContinuousClock.now
    var tokens = PhoneTokens(now: start, makeToken: Self.numbered())
    #expect(tokens.token(at: start) == ("t1", false))
    #expect(tokens.check("t1", at: start) == nil)
    #expect(tokens.use("t1", at: start + .seconds(3)) == nil)
    #expect(tokens.use("t1", at: start + .seconds(4)) == .used)
    #expect(tokens.check("t1", at: start + .seconds(4)) == .used)
    #expect(tokens.token(at: start + .seconds(4)).token == "t2")
    #expect(tokens.use("t2", at: start + .seconds(5)) == nil)
  }

  @Test("an unused token expires after 5 minutes and is replaced; an unknown one is refused")
  func expiry() {
    let start = ContinuousClock.now
    var tokens = PhoneTokens(now: start, makeToken: Self.numbered())
    #expect(tokens.check("t1", at: start + .seconds(299)) == nil)
    #expect(tokens.check("t1", at: start + .seconds(300)) == .expired)
    #expect(tokens.token(at: start + .seconds(300)) == ("t2", true))
    #expect(tokens.use("t1", at: start + .seconds(301)) == .expired)
    #expect(tokens.use("nope", at: start + .seconds(301)) == .unknown)
    #expect(tokens.use("t2", at: start + .seconds(302)) == nil)
  }

  @Test("the refusals' sentences say what to do")
  func sentences() {
    #expect(PhoneTokens.Refusal.used.description.contains("already used"))
    #expect(PhoneTokens.Refusal.expired.description.contains("expired"))
    #expect(PhoneTokens.Refusal.unknown.description.contains("Scan the code"))
  }
}
