import Testing

@testable import FocusEngine

/// `FocusState.Prior`: every event that says it keeps the layout tables keeps them, and a
/// prior read on the tables after such an event answers what the whole state before it did.
struct PriorTests {
  @Test(
    "events that keep the layout tables keep them; a prior reads as the state before",
    arguments: Array(UInt64(1)...40))
  func keepsTables(seed: UInt64) throws {
    var rng = SplitMix64(seed: 6_400 + seed)
    let layout = Self.layout(&rng)
    var state = try FocusState(layout: layout)
    var time: UInt64 = 1_000_000_000
    var kept = 0
    for step in 0..<200 {
      time += UInt64(Int.random(in: 1...2_000, using: &rng)) * 1_000_000
      let event = Self.event(&rng, layout: layout, at: time)
      let before = state
      let prior = state.prior
      reduce(&state, event)
      let tablesKept = state.layout == before.layout && state.index == before.index
      if event.keepsLayoutTables {
        #expect(tablesKept, "seed \(seed), step \(step): \(event)")
      }
      guard tablesKept else { continue }
      kept += 1
      // Read on the tables after the event, the prior is the state before it.
      #expect(prior == before.prior)
      #expect(state.focusedDisplayState(at: prior) == before.focusedDisplayState)
      for item in layout.items {
        #expect(
          state.displayState(of: item.id, at: prior) == before.displayState(of: item.id),
          "seed \(seed), step \(step): \(item.id)")
      }
      #expect(state.displayState(of: "nowhere", at: prior) == nil)
      for tilt in [Point.zero, Point(x: 0.3, y: -0.2)] {
        for bump in [nil, Direction.left, .down] {
          #expect(
            Parallax.of(prior, in: state, tilt: tilt, bump: bump)
              == Parallax.of(before, tilt: tilt, bump: bump))
        }
      }
    }
    #expect(kept > 100)
  }

  @Test(
    "in virtual groups too: arrows, Tab and far focus keep the tables; the prior reads as before",
    arguments: Array(UInt64(1)...30))
  func keepsVirtualTables(seed: UInt64) throws {
    var rng = SplitMix64(seed: 9_100 + seed)
    var state = try FocusState(layout: VirtualStepTests.layout(&rng, shrink: 0))
    var moved = 0
    for step in 0..<150 {
      let event = VirtualStepTests.event(&rng)
      #expect(event.keepsLayoutTables)
      let before = state
      let prior = state.prior
      reduce(&state, event)
      #expect(
        state.layout == before.layout && state.index == before.index,
        "seed \(seed), step \(step): \(event)")
      if state.focused != before.focused { moved += 1 }
      #expect(state.focusedDisplayState(at: prior) == before.focusedDisplayState)
      if let id = before.focused {
        #expect(state.displayState(of: id, at: prior) == before.displayState(of: id))
      }
      if let id = state.focused {
        #expect(state.displayState(of: id, at: prior) == before.displayState(of: id))
      }
      #expect(
        Parallax.of(prior, in: state, tilt: .zero, bump: nil)
          == Parallax.of(before, tilt: .zero, bump: nil))
    }
    #expect(moved > 0, "seed \(seed): focus never moved")
  }

  /// Rows of items in groups, some revealed by the pointer, some disabled.
  static func layout(_ rng: inout SplitMix64) -> Layout {
    var layout = Layout(items: [], groups: [])
    for row in 0..<Int.random(in: 1...4, using: &rng) {
      var ids: [String] = []
      for column in 0..<Int.random(in: 1...5, using: &rng) {
        var item = Item(
          id: "r\(row)c\(column)",
          frame: Rect(
            x: Double(column) * 300 + 40, y: Double(row) * 220 + 40, width: 260, height: 180),
          available: Double.random(in: 0..<1, using: &rng) > 0.15,
          toggles: Bool.random(using: &rng),
          selected: Double.random(in: 0..<1, using: &rng) < 0.2)
        if Double.random(in: 0..<1, using: &rng) < 0.1 { item.kind = .textField }
        if Double.random(in: 0..<1, using: &rng) < 0.3 {
          item.layers = [
            ParallaxLayer(name: "back", depth: 0), ParallaxLayer(name: "front", depth: 1),
          ]
        }
        layout.items.append(item)
        ids.append(item.id)
      }
      layout.groups.append(
        Group(
          id: "row\(row)", items: ids, enabled: Double.random(in: 0..<1, using: &rng) > 0.1,
          revealOnPointer: Double.random(in: 0..<1, using: &rng) < 0.35))
    }
    return layout
  }

  /// A random event of every kind but a layout replacement and a patch.
  static func event(_ rng: inout SplitMix64, layout: Layout, at time: UInt64) -> FocusEvent {
    let x = Double.random(in: 0...1_300, using: &rng)
    let y = Double.random(in: 0...900, using: &rng)
    switch Int.random(in: 0..<14, using: &rng) {
    case 0..<4:
      return .move(Direction.allCases[Int.random(in: Direction.allCases.indices, using: &rng)])
    case 4: return .tab(Bool.random(using: &rng) ? .next : .previous)
    case 5: return .selectDown
    case 6: return .selectUp
    case 7: return .cancelSelect
    case 8: return .text(Bool.random(using: &rng) ? .append("a") : .clear)
    case 9:
      return .requestFocus(
        .item(layout.items[Int.random(in: layout.items.indices, using: &rng)].id))
    case 10: return .restoreMemory(FocusMemory())
    case 11: return .pointerIdle(at: time)
    default:
      let phases: [PointerPhase] = [.moved, .moved, .down, .up, .scroll]
      let phase = phases[Int.random(in: phases.indices, using: &rng)]
      return .pointer(
        PointerSample(
          phase, position: Point(x: x, y: y),
          scroll: phase == .scroll ? Point(x: 0, y: 60) : .zero, at: time))
    }
  }
}
