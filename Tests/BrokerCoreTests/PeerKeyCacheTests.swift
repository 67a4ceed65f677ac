import BrokerDomain
import FocusEngine
import Testing

@testable import BrokerCore

/// The broker keeps the last CURVE key's access and budget name instead of working them out
/// for every message (`PeerKeyCache`): whatever the order keys arrive in, what it answers is
/// what `PeerAccess(userID:)` and the budget's rule give.
@Suite("The last CURVE key's access and budget (PeerKeyCache)")
struct PeerKeyCacheTests {
  @Test(
    "20,000 messages from keys in runs and interleaved: the access and budget worked out each time"
  )
  func matchesTheDirectComputation() {
    var random = SplitMix64(seed: 0x7EE7_CAC4)
    let keys = (0..<6).map { "peer:" + String(repeating: String($0, radix: 16), count: 64) }
    let others = ["", "peer:", "app-without-prefix", "peer:é∂", "PEER:abc"]
    let userIDs: [String?] = keys + others + [nil]
    var cache = PeerKeyCache()
    var current = userIDs[0]
    var repeats = 0
    for _ in 0..<20_000 {
      // Runs of one key, as a remote's presses come, broken by other keys and no key.
      if random.next() % 4 == 0 {
        current = userIDs[Int(random.next() % UInt64(userIDs.count))]
      }
      if current == cache.userID { repeats += 1 }
      let access = cache.access(for: current)
      #expect(access == PeerAccess(userID: current))
      if let current {
        cache.use(current)
        #expect(cache.userID == current)
        #expect(cache.budget == [0] + Array(current.utf8))
        #expect(cache.access == PeerAccess(userID: current))
      }
    }
    // Both branches ran: repeats the cache answered, and changes it worked out.
    #expect(repeats > 5_000 && repeats < 19_000, "repeats: \(repeats)")
  }
}
