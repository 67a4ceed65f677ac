import FocusEngine
import ScreenCore
import TenFootProtocol
import Testing

/// A frame keeps a delta's effects and makes its status line (`lastEvent`) when read: the line
/// must be the one the effects' summaries make, joined with "; ", whatever the effects are.
@Suite("StateSync: a frame's status line made from its delta's effects when read")
struct EventLineTests {
  /// A seeded generator (SplitMix64), so a failure replays.
  struct Random: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static let ids = ["", "r0c0", "r0c1", "group-1", "é→ü", "a; b"]

  static func id(_ random: inout Random) -> String {
    ids[Int.random(in: 0..<ids.count, using: &random)]
  }

  /// A wire effect of any kind, the unknown ones (no kind, an unrecognised heading) included.
  static func effect(_ random: inout Random) -> Tenfoot_V1_FocusEffect {
    var effect = Tenfoot_V1_FocusEffect()
    let heading = Tenfoot_V1_Heading(rawValue: Int.random(in: 0...10, using: &random)) ?? .up
    switch Int.random(in: 0...15, using: &random) {
    case 0:
      effect.kind = .focusChanged(
        .with {
          if Bool.random(using: &random) { $0.previous = id(&random) }
          $0.next = id(&random)
          $0.heading = heading
        })
    case 1: effect.kind = .movementFailed(heading)
    case 2: effect.kind = .highlighted(id(&random))
    case 3: effect.kind = .activated(id(&random))
    case 4:
      effect.kind = .scrolled(
        .with {
          $0.group = id(&random)
          $0.x = Double(Int.random(in: -500...500, using: &random)) / 4
          $0.y = Double(Int.random(in: -500...500, using: &random)) / 4
        })
    case 5: effect.kind = .layoutRejected(id(&random))
    case 6: effect.kind = .back(true)
    case 7: effect.kind = .home(true)
    case 8: effect.kind = .playPause(id(&random))
    case 9: effect.kind = .contextMenu(id(&random))
    case 10:
      effect.kind = .textChanged(
        .with {
          $0.id = id(&random)
          $0.value = id(&random)
        })
    case 11:
      effect.kind = .selectionChanged(
        .with {
          $0.id = id(&random)
          $0.selected = Bool.random(using: &random)
        })
    case 12:
      effect.kind = .itemsInView(
        .with {
          $0.group = id(&random)
          $0.start = UInt64.random(in: 0...100, using: &random)
          $0.end = UInt64.random(in: 0...100, using: &random)
        })
    case 13: effect.kind = .movementFailed(.UNRECOGNIZED(99))
    default: break  // No kind: "nothing".
    }
    return effect
  }

  @Test("random effects: the line read is their summaries joined, and frames compare by it")
  func randomEffects() throws {
    var random = Random(state: 0xE7E7)
    var sync = StateSync(screen: "main")
    var snapshot = Tenfoot_V1_ScreenState()
    snapshot.screenID = "main"
    snapshot.epoch = 1
    snapshot.seq = 1
    guard case .render = sync.apply(snapshot: snapshot) else {
      Issue.record("the snapshot was not rendered")
      return
    }
    for seq in UInt64(2)..<502 {
      var delta = Tenfoot_V1_StateDelta()
      delta.screenID = "main"
      delta.epoch = 1
      delta.seq = seq
      delta.effects = (0..<Int.random(in: 0...5, using: &random)).map { _ in
        Self.effect(&random)
      }
      let expected = delta.effects.map(\.summary).joined(separator: "; ")
      guard case .render(let frame) = sync.apply(delta: delta) else {
        Issue.record("delta \(seq) was not rendered")
        return
      }
      try #require(frame.lastEvent == expected, "delta \(seq)")
      try #require(sync.frame == frame)
      // A frame whose line was given as text equals one whose line is made from effects
      // exactly when the texts are equal.
      var given = frame
      given.lastEvent = expected
      try #require(given == frame, "delta \(seq)")
      try #require(given.lastEvent == expected)
      given.lastEvent = expected + "."
      try #require(given != frame, "delta \(seq)")
      given.lastEvent = nil
      try #require(given != frame && given.lastEvent == nil, "delta \(seq)")
    }
  }
}
