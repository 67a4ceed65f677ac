import Testing

@testable import FocusEngine

/// The in-place path for attribute-only patches (`FocusState+AttributePatch.swift`) against
/// the general one (the patch applied to a copy of the layout, validated whole, indexed
/// again): the same effects, the same whole state, the same refusal.
@Suite("Attribute-only patches in place")
struct AttributePatchTests {
  /// A random listed layout with labels, declared selections, text fields and
  /// `revealOnPointer` groups besides what ``RandomLayouts/anything(_:maxItems:guides:options:)``
  /// makes.
  static func layout(_ rng: inout SplitMix64) -> Layout {
    var layout = RandomLayouts.anything(&rng, maxItems: 40)
    for position in layout.items.indices {
      if rng.chance(0.1) { layout.items[position].kind = .label }
      if rng.chance(0.1) { layout.items[position].kind = .textField }
      if rng.chance(0.15) { layout.items[position].selected = true }
    }
    func reveal(_ groups: inout [Group]) {
      for position in groups.indices {
        if rng.chance(0.15) { groups[position].revealOnPointer = true }
        reveal(&groups[position].groups)
      }
    }
    reveal(&layout.groups)
    return layout
  }

  /// A random history: inputs, the pointer, requests, patches and replacements.
  static func history(_ rng: inout SplitMix64, _ state: inout FocusState) {
    var clock: UInt64 = 1
    for _ in 0..<rng.int(0...25) {
      clock += UInt64(rng.int(1...400_000_000))
      if rng.chance(0.2) {
        let position = Point(x: Double(rng.int(0...192) * 10), y: Double(rng.int(0...108) * 10))
        let phase = rng.pick([PointerPhase.moved, .moved, .down, .up])
        _ = reduce(&state, .pointer(PointerSample(phase, position: position, at: clock)))
      } else {
        var event = RandomLayouts.event(&rng, state)
        // Replacements keep the layout's richer kind of randomness.
        if case .replaceLayout = event { event = .replaceLayout(layout(&rng)) }
        _ = reduce(&state, event)
      }
    }
  }

  /// A random attribute-only patch: items, groups and guides (some unknown) made available,
  /// enabled or disabled, sometimes with a focus target.
  static func patch(_ rng: inout SplitMix64, _ state: FocusState) -> LayoutPatch {
    let items = state.layout.items.map(\.id) + ["missing"]
    var groups = ["g0", "g1", "g2", "g3", "g4", "g5", "nowhere"]
    groups.removeAll { $0 != "nowhere" && state.group($0) == nil && rng.chance(0.8) }
    let guides = ["gd0", "gd1", "gd2", "gd3", "nothing"]
    var operations: [LayoutPatch.Operation] = []
    for _ in 0..<rng.int(0...4) {
      switch rng.int(0...9) {
      case 0...5: operations.append(.setItemAvailable(rng.pick(items), rng.chance(0.5)))
      case 6...8: operations.append(.setGroupEnabled(rng.pick(groups), rng.chance(0.5)))
      default: operations.append(.setGuideEnabled(rng.pick(guides), rng.chance(0.5)))
      }
    }
    let focus: FocusTarget? =
      switch rng.int(0...5) {
      case 0: .item(rng.pick(items))
      case 1: .group(rng.pick(groups))
      default: nil
      }
    return LayoutPatch(operations, focus: focus)
  }

  /// The names of the parts in which two states differ (a failure's message, shorter than
  /// two whole states).
  static func differences(_ a: FocusState, _ b: FocusState) -> [String] {
    let parts: [(String, Bool)] = [
      ("layout.items", a.layout.items == b.layout.items),
      ("layout.groups", a.layout.groups == b.layout.groups),
      ("layout.guides", a.layout.guides == b.layout.guides),
      ("focused", a.focused == b.focused), ("pressed", a.pressed == b.pressed),
      ("selected", a.selected == b.selected), ("lastFocused", a.lastFocused == b.lastFocused),
      ("lastFocusedOwn", a.lastFocusedOwn == b.lastFocusedOwn),
      ("scrollOffsets", a.scrollOffsets == b.scrollOffsets),
      ("textValues", a.textValues == b.textValues), ("pointer", a.pointer == b.pointer),
      (
        "lastInput",
        a.lastInputWasDirectional == b.lastInputWasDirectional
          && a.lastInputWasPointer == b.lastInputWasPointer
      ),
      ("index.focusable", a.index.focusable == b.index.focusable),
      ("index.nodes", a.index.nodes == b.index.nodes),
      ("index.groupValues", a.index.groupValues == b.index.groupValues),
      ("index", a.index == b.index), ("shift", a.shift == b.shift && a.ownOffset == b.ownOffset),
      ("grids", a.grids == b.grids),
    ]
    return parts.filter { !$0.1 }.map(\.0)
  }

  @Test("random attribute patches: in place and whole give the same effects and state")
  func differential() throws {
    var applied = 0
    var refused = 0
    var recovered = 0
    for seed in 0..<400 {
      var rng = SplitMix64(seed: UInt64(seed))
      guard var state = try? FocusState(layout: Self.layout(&rng)) else { continue }
      Self.history(&rng, &state)
      for _ in 0..<6 {
        let patch = Self.patch(&rng, state)
        let cause: FocusCause? = rng.chance(0.5) ? FocusCause(sender: "app", sequence: 7) : nil
        #expect(state.attributeChanges(of: patch) != nil, "seed \(seed): \(patch)")
        var whole = state
        var wholeEffects = whole.applyPatchWhole(patch, cause: cause)
        if !whole.virtualWanted.isEmpty || whole.hasVirtualGroups {
          wholeEffects += whole.askForVirtualContent()
        }
        var inPlace = state
        let effects = reduce(&inPlace, .applyPatch(patch), cause: cause)
        #expect(effects == wholeEffects, "seed \(seed): \(patch)")
        let same = inPlace == whole
        #expect(same, "seed \(seed): \(patch) differs in \(Self.differences(inPlace, whole))")
        if case .layoutRejected = effects.first {
          refused += 1
          let unchanged = inPlace == state
          #expect(
            unchanged, "seed \(seed): a refused patch changed \(Self.differences(inPlace, state))")
        } else {
          applied += 1
          if effects.contains(where: {
            if case .focusChanged(let context) = $0 { context.heading == .recovery } else { false }
          }) {
            recovered += 1
          }
        }
        state = inPlace
        if rng.chance(0.3) { _ = reduce(&state, .move(rng.pick(Direction.allCases))) }
      }
    }
    // The cases the comparison is about all came up.
    #expect(applied > 1000)
    #expect(refused > 100)
    #expect(recovered > 50)
  }

  @Test("a patch that adds, removes or moves, or a layout with virtual groups, goes whole")
  func generalPath() throws {
    let items = (0..<4).map { item("i\($0)", Double($0) * 100, 0, 90, 90) }
    let state = try FocusState(
      layout: Layout(items: items, groups: [Group(id: "g", items: ["i1"])]))
    #expect(state.attributeChanges(of: LayoutPatch([.setItemAvailable("i1", false)])) != nil)
    let structural: [LayoutPatch.Operation] = [
      .removeItem("i0"), .moveItem("i0", frame: Rect(x: 0, y: 0, width: 1, height: 1)),
      .addItem(item("n", 0, 200, 10, 10), group: nil), .removeGroup("g"),
      .addGroup(Group(id: "h"), parent: nil),
    ]
    for operation in structural {
      #expect(
        state.attributeChanges(of: LayoutPatch([.setItemAvailable("i1", false), operation])) == nil)
    }
    var layout = state.layout
    layout.groups.append(
      Group(id: "rail", virtual: VirtualItems(count: 10, itemSize: Size(width: 10, height: 10))))
    let virtual = try FocusState(layout: layout)
    #expect(virtual.attributeChanges(of: LayoutPatch([.setItemAvailable("i1", false)])) == nil)
  }

  @Test("the focused item made unavailable: focus goes to its nearest neighbour, in place")
  func focusedItemRecovers() throws {
    let items = (0..<200).map { item("r\($0)", Double($0) * 100, 0, 90, 90) }
    var state = try FocusState(
      layout: Layout(items: items, groups: [Group(id: "row", items: items.map(\.id))]))
    for _ in 0..<5 { _ = reduce(&state, .move(.right)) }
    #expect(state.focused == "r5")
    let effects = reduce(&state, .applyPatch(LayoutPatch([.setItemAvailable("r5", false)])))
    #expect(
      effects == [
        .focusChanged(FocusUpdateContext(previous: "r5", next: "r4", heading: .recovery))
      ])
    #expect(state.displayState(of: "r5") == .unavailable)
    #expect(state.lastFocused["row"] == "r4")
    let refused = reduce(&state, .applyPatch(LayoutPatch([.setGroupEnabled("column", false)])))
    #expect(
      refused == [
        .layoutRejected(LayoutError(path: "operations[0]", reason: "unknown group \"column\""))
      ])
  }
}
