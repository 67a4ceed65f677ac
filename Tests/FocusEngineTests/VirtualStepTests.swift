import Testing

@testable import FocusEngine

/// The shortcuts a step over virtual groups takes, held to the straightforward computation on
/// seeded layouts of listed items and scrolling virtual groups: focus set with its known
/// position (not its `group#index` id parsed back), and the content request that finds every
/// window still inside its wanted region (no table built).
@Suite("A step's shortcuts over virtual groups")
struct VirtualStepTests {
  /// Seeded layouts walked.
  static let layouts = 120
  /// Steps per layout.
  static let steps = 150

  @Test("every position's id leads back to it; the focused position is the focused id's")
  func focusedPosition() throws {
    for seed in 0..<UInt64(Self.layouts) {
      var rng = SplitMix64(seed: seed)
      var state = try FocusState(layout: Self.layout(&rng, shrink: 0))
      let positions =
        state.index.listedCount + state.index.virtualSpans.reduce(0) { $0 + $1.items.count }
      for position in 0..<positions {
        #expect(state.index.position(of: state.itemID(at: position)) == position, "seed \(seed)")
      }
      for _ in 0..<Self.steps {
        reduce(&state, Self.event(&rng))
        var parsed = state
        parsed.focused = state.focused  // The setter looks the id up.
        #expect(parsed.focusedAt == state.focusedAt, "seed \(seed)")
        #expect(parsed == state, "seed \(seed)")
        // `ownOffset` is `scrollOffsets` by index (read in its place when scrolling).
        #expect(
          state.ownOffset == state.index.nodes.map { state.scrollOffsets[$0.id] ?? .zero },
          "seed \(seed)")
      }
    }
  }

  @Test("the content request's shortcut asks and keeps what the whole pass does")
  func contentShortcut() throws {
    var shortcuts = 0
    var asked = 0
    for seed in 0..<UInt64(Self.layouts) {
      var rng = SplitMix64(seed: seed)
      var state = try FocusState(layout: Self.layout(&rng, shrink: 0))
      for step in 0..<Self.steps {
        var stepped = state
        if step % 37 == 36 {
          // Another shape (fewer items, or a group gone): the regions are asked again.
          var copy = rng
          _ = stepped.replaceAndRecover(Self.layout(&copy, shrink: rng.int(1...3)), cause: nil)
        } else {
          reduce(&stepped, Self.event(&rng))
          stepped.virtualWanted = state.virtualWanted  // The step before its request.
        }
        var whole = stepped
        let expected = whole.askForVirtualContentWhole()
        let actual = stepped.askForVirtualContent()
        #expect(actual == expected, "seed \(seed) step \(step)")
        #expect(stepped == whole, "seed \(seed) step \(step)")
        if expected.isEmpty { shortcuts += 1 } else { asked += 1 }
        state = stepped
      }
    }
    // Both kinds of step happen often enough to be compared.
    #expect(shortcuts > 1_000)
    #expect(asked > 300)
  }

  @Test("the content request read by span asks and keeps what the whole pass does")
  func contentBySpan() throws {
    var sameViews = 0
    var otherViews = 0
    var asked = 0
    var byID = 0
    for seed in 0..<UInt64(Self.layouts) {
      var rng = SplitMix64(seed: seed)
      var state = try FocusState(layout: Self.layout(&rng, shrink: 0))
      for step in 0..<Self.steps {
        // The step as `reduce` takes it, with the regions by span its last request noted.
        var stepped = state
        _ = reduceStep(&stepped, Self.event(&rng), cause: nil)
        let bySpan = !stepped.wantedBySpan.spans.isEmpty
        let covers = bySpan ? stepped.wantedBySpanCovers : nil
        let views = stepped.index.virtualSpans.map { stepped.virtualView(ofGroup: $0.group) }
        let before = stepped.virtualWanted
        let notedViews = stepped.wantedBySpan.spans.map(\.view)
        var whole = stepped
        let expected = whole.askForVirtualContentWhole()
        let actual = stepped.askForVirtualContent()
        #expect(actual == expected, "seed \(seed) step \(step)")
        #expect(stepped == whole, "seed \(seed) step \(step)")
        // What is noted is what `virtualWanted` says, and a view noted is one found covered.
        var noted = stepped
        noted.wantedBySpan = WantedBySpan()
        noted.noteWantedBySpan()
        #expect(
          stepped.wantedBySpan.spans.map(\.region) == noted.wantedBySpan.spans.map(\.region),
          "seed \(seed)")
        switch covers {
        case _ where !bySpan:
          // A group that showed nothing yet has no region: the check looks wants up by id.
          byID += 1
        case nil:
          asked += 1
        case let same?:
          #expect(expected.isEmpty && whole.virtualWanted == before, "seed \(seed) step \(step)")
          #expect(same == (notedViews == views), "seed \(seed) step \(step)")
          #expect(stepped.wantedBySpan.spans.map(\.view) == views, "seed \(seed) step \(step)")
          if same { sameViews += 1 } else { otherViews += 1 }
        }
        state = stepped
      }
    }
    // Each way through the check happens often enough to be compared.
    #expect(sameViews > 1_000)
    #expect(otherViews > 1_000)
    #expect(asked > 300)
    #expect(byID > 100)
  }

  @Test("a virtual id made from its bytes is the group, #, and the index joined")
  func idBytes() {
    var rng = SplitMix64(seed: 64)
    let groups = ["", "g", "grid", "rail-of-many-posters", "grillé", "日本語の行", "a#b", "v0"]
    var short = 0
    var long = 0
    for _ in 0..<5_000 {
      let group = groups[rng.int(0...groups.count - 1)]
      let index =
        switch rng.int(0...3) {
        case 0: rng.int(0...9)
        case 1: rng.int(0...99_999)
        case 2: rng.int(0...VirtualItems.maximumCount)
        default: rng.int(-1_000...(-1))
        }
      let id = VirtualItems.id(group: group, index: index)
      #expect(id == group + "#" + String(index), "\(group) \(index)")
      if index >= 0 { #expect(VirtualItems.parse(id)?.index == index, "\(group) \(index)") }
      if id.utf8.count <= 15 { short += 1 } else { long += 1 }
    }
    #expect(VirtualItems.id(group: "grid", index: Int.max) == "grid#\(Int.max)")
    // Both the small (inline) strings and the allocated ones are made.
    #expect(short > 1_000)
    #expect(long > 1_000)
  }

  @Test("memory kept by group index reads, moves and survives a new layout as the table by id")
  func memoryByIndex() throws {
    var kept = 0
    var dropped = 0
    var same = 0
    var differ = 0
    for seed in 0..<UInt64(Self.layouts) {
      var rng = SplitMix64(seed: seed)
      var state = try FocusState(layout: Self.layout(&rng, shrink: 0))
      for _ in 0..<40 {
        reduce(&state, Self.event(&rng))
        // Every focus change remembers the item in each group around it, by id as by index.
        if let focused = state.focusedPosition, let id = state.focused {
          let group = state.index.groupOf(focused)
          if group >= 0 {
            #expect(state.lastFocusedOwn[state.index.nodes[group].id] == id, "seed \(seed)")
            for ancestor in state.index.ancestors(of: group) {
              #expect(state.lastFocused[state.index.nodes[ancestor].id] == id, "seed \(seed)")
            }
          }
        }
        #expect(state.rememberedAt.count == state.index.nodes.count)
        #expect(state.rememberedOwnAt.count == state.index.nodes.count)
      }
      // A layout with the groups in another order (other indices), smaller, or one gone.
      var other = Self.layout(&rng, shrink: rng.int(0...3))
      other.groups.reverse()
      let before = state.lastFocused
      let beforeOwn = state.lastFocusedOwn
      _ = state.replace(other)
      let index = LayoutIndex(other)
      let expected = before.filter {
        index.groupIndex[$0.key] != nil && index.position(of: $0.value) != nil
      }
      let expectedOwn = beforeOwn.filter { entry in
        guard let group = index.groupIndex[entry.key], let item = index.position(of: entry.value)
        else { return false }
        return index.groupOf(item) == group
      }
      #expect(state.lastFocused == expected, "seed \(seed)")
      #expect(state.lastFocusedOwn == expectedOwn, "seed \(seed)")
      #expect(state.memory == FocusMemory(lastFocused: expected, lastFocusedOwn: expectedOwn))
      // Compared in place as the tables compare: the same memory, and one entry off.
      var others = [state.memory]
      for (group, item) in expected {
        var changed = state.memory
        changed.lastFocused[group] = item + "x"
        others.append(changed)
        changed.lastFocused[group] = nil
        others.append(changed)
      }
      for (group, _) in expectedOwn {
        var changed = state.memory
        changed.lastFocusedOwn[group] = nil
        others.append(changed)
      }
      var extra = state.memory
      extra.lastFocused["elsewhere"] = "i0"
      others.append(extra)
      for memory in others {
        #expect(state.remembers(memory) == (memory == state.memory), "seed \(seed)")
        if state.remembers(memory) { same += 1 } else { differ += 1 }
      }
      kept += expected.count
      dropped += before.count - expected.count
      // Restored from its own saved memory, a state remembers the same.
      var restored = state
      restored.lastFocused = [:]
      restored.lastFocusedOwn = [:]
      reduce(&restored, .restoreMemory(state.memory))
      #expect(restored.lastFocused == state.lastFocused, "seed \(seed)")
      #expect(restored.lastFocusedOwn == state.lastFocusedOwn, "seed \(seed)")
    }
    // Both a kept memory and a dropped one happen often enough to be compared.
    #expect(kept > 50)
    #expect(dropped > 20)
    #expect(same > 50)
    #expect(differ > 50)
  }

  @Test("a declaration's shape compares as its shape copy does, with or without content")
  func shapes() {
    var rng = SplitMix64(seed: 62)
    var same = 0
    for _ in 0..<2_000 {
      func declaration(_ rng: inout SplitMix64) -> VirtualItems {
        var content: [Int: VirtualContent] = [:]
        if rng.chance(0.5) { content[rng.int(0...3)] = VirtualContent(available: rng.chance(0.5)) }
        return VirtualItems(
          count: rng.int(1...4), origin: Point(x: Double(rng.int(0...1)), y: 0),
          itemSize: Size(width: Double(rng.int(1...2)), height: 1),
          spacing: Size(width: 0, height: 0), arrangement: rng.chance(0.5) ? .row : .column,
          content: content)
      }
      let a = declaration(&rng)
      let b = declaration(&rng)
      #expect(a.hasShape(b.shape) == (a.shape == b.shape))
      #expect(a.hasShape(a.shape))
      if a.shape == b.shape { same += 1 }
    }
    #expect(same > 50)
  }

  /// A seeded layout: a few listed items and one to three virtual groups (rows, columns,
  /// grids) of up to 2,000 items, most scrolling inside a viewport, some inside a scrolling
  /// page. `shrink` > 0 makes the same layout with smaller counts (1) or a group gone (2, 3).
  static func layout(_ rng: inout SplitMix64, shrink: Int) -> Layout {
    var items: [Item] = []
    for position in 0..<rng.int(0...5) {
      items.append(
        Item(
          id: "i\(position)",
          frame: Rect(
            x: Double(rng.int(-500...2_500)), y: Double(rng.int(-500...1_500)),
            width: Double(rng.int(20...300)), height: Double(rng.int(20...300)))))
    }
    var groups: [Group] = []
    let paged = rng.chance(0.3)
    for index in 0..<rng.int(1...3) {
      let count = rng.int(1...2_000)
      let arrangement: VirtualArrangement =
        switch rng.int(0...2) {
        case 0: .row
        case 1: .column
        default: .grid(columns: rng.int(1...60))
        }
      let scrolls: [ScrollAxis?] = [nil, .horizontal, .vertical, .both]
      let viewport = Rect(
        x: Double(rng.int(0...400)), y: Double(rng.int(0...400)),
        width: Double(rng.int(100...1_900)), height: Double(rng.int(100...1_000)))
      let scroll = rng.chance(0.8) ? scrolls[rng.int(0...3)] : nil
      var group = Group(
        id: "v\(index)", scroll: scroll, viewport: scroll == nil ? nil : viewport)
      group.virtual = VirtualItems(
        count: shrink == 1 ? max(1, count / 3) : count,
        origin: Point(x: Double(rng.int(0...500)), y: Double(rng.int(0...500))),
        itemSize: Size(width: Double(rng.int(10...300)), height: Double(rng.int(10...200))),
        spacing: Size(width: Double(rng.int(0...40)), height: Double(rng.int(0...40))),
        arrangement: arrangement)
      if shrink >= 2, index == 0 { continue }
      groups.append(group)
    }
    if paged {
      groups = [
        Group(
          id: "page", groups: groups, scroll: .vertical,
          viewport: Rect(x: 0, y: 0, width: 1_920, height: 1_080))
      ]
    }
    return Layout(items: items, groups: groups)
  }

  /// A random step: mostly arrows, some Tabs and programmatic focus on a far index.
  static func event(_ rng: inout SplitMix64) -> FocusEvent {
    switch rng.int(0...19) {
    case 0: return .tab(rng.chance(0.5) ? .next : .previous)
    case 1: return .requestFocus(.item("v0#\(rng.int(0...1_999))"))
    default: return .move(Direction.allCases[rng.int(0...3)])
    }
  }
}
