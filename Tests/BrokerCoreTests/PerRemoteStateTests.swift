import FocusEngine
import TenFootProtocol
import TestSupport
import Testing

@testable import BrokerCore

/// Each remote on a screen keeps its own timing state (taps, holds, finger), told apart by its
/// connection even when two remotes give the same sender name.
@Suite("Per-remote timing state on one screen")
struct PerRemoteStateTests {
  static func registered() -> BrokerState {
    var state = BrokerState(epoch: 1, name: "test")
    var register = Tenfoot_V1_RegisterScreen()
    register.screenID = "main"
    register.layout = Tenfoot_V1_Layout(TestLayouts.grid(rows: 1, columns: 3))
    _ = state.handle(
      Tenfoot_V1_Envelope(
        sender: "screen", seq: 1, sentAtNanoseconds: 0, body: .registerScreen(register)))
    return state
  }

  /// Sends Select down then up at `at` nanoseconds from `peer`; returns the release's effects.
  static func tapSelect(_ state: inout BrokerState, peer: [UInt8], at: UInt64)
    -> [Tenfoot_V1_FocusEffect]
  {
    var effects: [Tenfoot_V1_FocusEffect] = []
    for (phase, time) in [(Tenfoot_V1_KeyPhase.down, at), (.up, at + 40_000_000)] {
      var input = Tenfoot_V1_Input()
      input.screenID = "main"
      input.key = .with {
        $0.key = .select
        $0.phase = phase
        $0.timestampNs = time
      }
      let outcome = state.handle(
        Tenfoot_V1_Envelope(sender: "remote", seq: 1, sentAtNanoseconds: 0, body: .input(input)),
        peer: peer)
      if case .ack(let ack) = outcome.reply { effects = ack.effects }
    }
    return effects
  }

  static func isDoubleTap(_ effects: [Tenfoot_V1_FocusEffect]) -> Bool {
    effects.contains { if case .doubleTap = $0.kind { true } else { false } }
  }

  @Test("two taps 200 ms apart from one remote are a double tap; from two remotes they are not")
  func doubleTapIsPerRemote() {
    var same = Self.registered()
    _ = Self.tapSelect(&same, peer: [0, 0, 0, 0, 1], at: 1_000_000_000)
    #expect(Self.isDoubleTap(Self.tapSelect(&same, peer: [0, 0, 0, 0, 1], at: 1_200_000_000)))

    var two = Self.registered()
    _ = Self.tapSelect(&two, peer: [0, 0, 0, 0, 1], at: 1_000_000_000)
    let other = Self.tapSelect(&two, peer: [0, 0, 0, 0, 2], at: 1_200_000_000)
    #expect(!Self.isDoubleTap(other), "another person's tap is not my double tap: \(other)")
  }

  @Test("a session remembers at most 16 remotes")
  func bounded() throws {
    var state = Self.registered()
    for index in 0..<40 {
      _ = Self.tapSelect(
        &state, peer: [1, 0, 0, 0, UInt8(index)], at: UInt64(index) * 1_000_000_000)
    }
    let session = try #require(state.sessions["main"])
    #expect(session.remotes.count == ScreenSession.rememberedRemotes)
  }

  @Test("remote keys are the identity in hex, or the sender without one")
  func keys() {
    #expect(
      ScreenSession.remoteKey(peer: [0, 0x8b, 0x45, 0x67, 0xff], sender: "r") == "008b4567ff")
    #expect(ScreenSession.remoteKey(peer: [], sender: "remote:alice") == "remote:alice")
  }
}
