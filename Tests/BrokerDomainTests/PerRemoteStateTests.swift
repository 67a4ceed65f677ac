import BrokerDomain
import FocusEngine
import Testing

/// Each remote on a screen keeps its own timing state (taps, holds, finger), told apart by its
/// connection even when two remotes give the same sender name.
@Suite("Domain: per-remote timing state on one screen")
struct PerRemoteStateTests {
  /// Select down then up at `at` nanoseconds from `remote`; returns the release's effects.
  static func tapSelect(_ harness: inout Harness, remote: String, at: UInt64) -> [FocusEffect] {
    _ = harness.key(.select, .down, remote: remote, time: at)
    return harness.key(.select, .up, remote: remote, time: at + 40_000_000).ack?.effects ?? []
  }

  static func isDoubleTap(_ effects: [FocusEffect]) -> Bool {
    effects.contains { if case .doubleTap = $0 { true } else { false } }
  }

  @Test("two taps 200 ms apart from one remote are a double tap; from two remotes they are not")
  func doubleTapIsPerRemote() {
    var same = Harness()
    same.register(Grid.layout(rows: 1, columns: 3))
    _ = Self.tapSelect(&same, remote: "0000000001", at: 1_000_000_000)
    #expect(Self.isDoubleTap(Self.tapSelect(&same, remote: "0000000001", at: 1_200_000_000)))

    var two = Harness()
    two.register(Grid.layout(rows: 1, columns: 3))
    _ = Self.tapSelect(&two, remote: "0000000001", at: 1_000_000_000)
    let other = Self.tapSelect(&two, remote: "0000000002", at: 1_200_000_000)
    #expect(!Self.isDoubleTap(other), "another person's tap is not my double tap: \(other)")
  }

  @Test("a session remembers at most 16 remotes")
  func bounded() throws {
    var harness = Harness()
    harness.register(Grid.layout(rows: 1, columns: 3))
    for index in 0..<40 {
      _ = Self.tapSelect(&harness, remote: "remote-\(index)", at: UInt64(index) * 1_000_000_000)
    }
    let session = try #require(harness.domain.sessions["main"])
    #expect(session.remotes.count == ScreenSession.rememberedRemotes)
  }
}
