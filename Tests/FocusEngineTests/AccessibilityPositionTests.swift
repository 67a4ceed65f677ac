import Testing

@testable import FocusEngine

/// An item's place among its group's focusable items ("4 of 12") read from the index's rank
/// table, against the scan of the group it replaced (`accessibilityPositionByScan(at:)`), for
/// every item after every change the table depends on: attribute patches (items made
/// unavailable, groups disabled), patches that add, remove or move, new layouts, the pointer
/// revealing and hiding `revealOnPointer` groups, and layouts with virtual groups.
@Suite("Accessibility position from the rank table")
struct AccessibilityPositionTests {
  /// Checks every listed item and the first items of each virtual group; returns how many
  /// items had a place (focusable ones).
  @discardableResult
  static func check(_ state: FocusState, seed: UInt64, _ context: String) -> Int {
    var positions = Array(0..<state.index.listedCount)
    for span in state.index.virtualSpans {
      positions += span.base..<(span.base + min(span.items.count, 3))
    }
    var placed = 0
    for position in positions {
      let table = state.accessibilityPosition(at: position)
      let scan = state.accessibilityPositionByScan(at: position)
      #expect(
        table?.index == scan?.index && table?.count == scan?.count,
        "seed \(seed), \(context): item \(state.itemID(at: position)) has \(String(describing: table)), the scan says \(String(describing: scan))"
      )
      if scan != nil { placed += 1 }
    }
    return placed
  }

  /// A random layout of ``AttributePatchTests/layout(_:)`` (labels, `revealOnPointer` groups),
  /// sometimes with a virtual group beside its listed items.
  static func layout(_ rng: inout SplitMix64) -> Layout {
    var layout = AttributePatchTests.layout(&rng)
    if rng.chance(0.25) {
      let items = VirtualItems(count: rng.int(1...40), itemSize: Size(width: 90, height: 90))
      var virtual = Group(id: "v", virtual: items)
      virtual.revealOnPointer = rng.chance(0.3)
      virtual.enabled = !rng.chance(0.2)
      layout.groups.append(virtual)
    }
    return layout
  }

  /// One random change: an attribute patch, a patch that adds, removes or moves, a pointer
  /// sample (opening or closing revealed groups), the pointer going idle, an input or a new
  /// layout.
  static func change(_ rng: inout SplitMix64, _ state: inout FocusState, clock: inout UInt64) {
    clock += UInt64(rng.int(1...400_000_000))
    switch rng.int(0...9) {
    case 0...2: _ = reduce(&state, .applyPatch(AttributePatchTests.patch(&rng, state)))
    case 3...4:
      let ids = state.layout.items.map(\.id) + ["g0", "g1", "g2"]
      _ = reduce(&state, .applyPatch(RandomLayouts.patch(&rng, ids)))
    case 5...6:
      let position = Point(x: Double(rng.int(-20...200) * 10), y: Double(rng.int(-20...120) * 10))
      let phase = rng.pick([PointerPhase.moved, .moved, .moved, .down, .up])
      _ = reduce(&state, .pointer(PointerSample(phase, position: position, at: clock)))
    case 7: _ = reduce(&state, .pointerIdle(at: clock))
    case 8: _ = reduce(&state, RandomLayouts.event(&rng, state))
    default: _ = reduce(&state, .replaceLayout(layout(&rng)))
    }
  }

  @Test("the rank table says what the scan says, after every change", arguments: Array(0..<60))
  func matchesScan(seed: UInt64) throws {
    var rng = SplitMix64(seed: 31_000 + seed)
    guard var state = try? FocusState(layout: Self.layout(&rng)) else { return }
    var clock: UInt64 = 1
    Self.check(state, seed: seed, "initial")
    for step in 0..<40 {
      Self.change(&rng, &state, clock: &clock)
      Self.check(state, seed: seed, "after change \(step)")
    }
  }

  @Test("the changes the table follows all came up, and it followed them")
  func coverage() throws {
    var revealed = 0
    var hidden = 0
    var unavailable = 0
    var placed = 0
    for seed in 0..<60 {
      var rng = SplitMix64(seed: 31_000 + UInt64(seed))
      guard var state = try? FocusState(layout: Self.layout(&rng)) else { continue }
      var clock: UInt64 = 1
      for _ in 0..<40 {
        Self.change(&rng, &state, clock: &clock)
        placed += Self.check(state, seed: UInt64(seed), "coverage")
        if !state.revealed.isEmpty { revealed += 1 }
        for position in 0..<state.index.listedCount where !state.index.isFocusable(position) {
          if state.layout.items[position].kind == .label { continue }
          if state.layout.items[position].available && state.index.nodes.allSatisfy(\.enabled) {
            hidden += 1
          } else {
            unavailable += 1
          }
        }
      }
    }
    #expect(placed > 5000)
    #expect(revealed > 20)
    #expect(hidden > 20)
    #expect(unavailable > 100)
  }

  @Test("a hand-made group: unavailable items, headings and nested items are not counted")
  func handMade() throws {
    let items = (0..<6).map { item("i\($0)", Double($0) * 100, 0, 90, 90) }
    var layout = Layout(
      items: items,
      groups: [
        Group(
          id: "row", items: ["i0", "i1", "i2", "i3"],
          groups: [Group(id: "inner", items: ["i4"])])
      ])
    layout.items[1].kind = .label
    var state = try FocusState(layout: layout)
    #expect(state.accessibilityPosition(ofItem: "i0")! == (1, 3))
    #expect(state.accessibilityPosition(ofItem: "i1") == nil)
    #expect(state.accessibilityPosition(ofItem: "i3")! == (3, 3))
    #expect(state.accessibilityPosition(ofItem: "i4")! == (1, 1))
    #expect(state.accessibilityPosition(ofItem: "i5")! == (1, 1))
    _ = reduce(&state, .applyPatch(LayoutPatch([.setItemAvailable("i2", false)])))
    #expect(state.accessibilityPosition(ofItem: "i2") == nil)
    #expect(state.accessibilityPosition(ofItem: "i3")! == (2, 2))
    _ = reduce(&state, .applyPatch(LayoutPatch([.setGroupEnabled("row", false)])))
    #expect(state.accessibilityPosition(ofItem: "i0") == nil)
    #expect(state.accessibilityPosition(ofItem: "i4") == nil)
    _ = reduce(
      &state,
      .applyPatch(
        LayoutPatch([
          .setGroupEnabled("row", true), .setItemAvailable("i2", true),
          .moveItem("i3", frame: Rect(x: -100, y: 0, width: 90, height: 90)),
        ])))
    #expect(state.accessibilityPosition(ofItem: "i3")! == (1, 3))
    #expect(state.accessibilityPosition(ofItem: "i0")! == (2, 3))
    #expect(state.accessibilityPosition(ofItem: "i2")! == (3, 3))
  }
}
