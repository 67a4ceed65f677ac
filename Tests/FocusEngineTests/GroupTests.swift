import Testing

@testable import FocusEngine

/// Focus changes of a Tab or Shift-Tab press.
func tabbed(_ from: String?, _ to: String?, _ tab: TabDirection) -> [FocusEffect] {
  [
    .focusChanged(
      FocusUpdateContext(previous: from, next: to, heading: tab == .next ? .next : .previous))
  ]
}

@Suite("Groups: Tab loop, traps, priorities and memory")
struct GroupTests {
  /// top: t1 t2 on the first line; shelf: s1 and its nested group inner (i1 i2) far right on the
  /// second line, with side (d1) between them; r, ungrouped, on the third line.
  func tabLayout(direction: LayoutDirection = .ltr) -> Layout {
    Layout(
      items: [
        item("t1", 0, 0, 100, 100), item("t2", 200, 0, 100, 100), item("s1", 0, 200, 100, 100),
        item("i1", 600, 200, 100, 100), item("i2", 800, 200, 100, 100),
        item("d1", 400, 200, 100, 100), item("r", 0, 400, 100, 100),
      ],
      groups: [
        Group(id: "side", items: ["d1"]),
        Group(id: "top", items: ["t2", "t1"]),
        Group(id: "shelf", items: ["s1"], groups: [Group(id: "inner", items: ["i2", "i1"])]),
      ],
      layoutDirection: direction)
  }

  @Test("the Tab loop: top to bottom, leading to trailing, nested groups contiguous")
  func loopOrder() throws {
    let state = try FocusState(layout: tabLayout())
    #expect(
      state.tabLoop() == [
        .init(group: "top", entry: "t1"), .init(group: "shelf", entry: "s1"),
        .init(group: "inner", entry: "i1"), .init(group: "side", entry: "d1"),
        .init(group: nil, entry: "r"),
      ])
  }

  @Test("rtl mirrors the loop and the reading order inside stops")
  func loopOrderRTL() throws {
    let state = try FocusState(layout: tabLayout(direction: .rtl))
    #expect(state.focused == "t2")
    #expect(
      state.tabLoop() == [
        .init(group: "top", entry: "t2"), .init(group: "inner", entry: "i2"),
        .init(group: "shelf", entry: "s1"), .init(group: "side", entry: "d1"),
        .init(group: nil, entry: "r"),
      ])
  }

  @Test("explain lists the groups, priority, primary item, Tab stop and arrow path")
  func explainInGroups() throws {
    var layout = tabLayout()
    layout.items[4].priority = .prioritized  // i2
    let state = try FocusState(layout: layout)
    #expect(
      state.explain("i1")
        == .init(
          id: "i1", canFocus: true,
          lines: [
            "i1 can take focus", "groups: inner < shelf", "priority: ignored (0)",
            "navigation tvos · search tvos · focus effect lift (default)",
            "pointer: hit region [584, 184, 132 × 132] (frame + 16 margin) · effect highlight (automatic)",
            "Tab stop 3 of 5",
            "reachable from t1 with arrows: down, right, right",
          ]))
    #expect(
      state.explain("i2").lines.prefix(5) == [
        "i2 can take focus", "groups: inner < shelf", "priority: prioritized (2000)",
        #"primary item of group "inner""#, #"primary item of group "shelf""#,
      ])
  }

  @Test(
    "initial focus in a selectionFollowsFocus group selects it, like initial focus after an empty layout"
  )
  func initialSelectionFollowsFocus() throws {
    let layout = Layout(
      items: [item("a", 0, 0, 100, 100), item("b", 200, 0, 100, 100)],
      groups: [Group(id: "bar", items: ["a", "b"], selectionFollowsFocus: true)])
    let direct = try FocusState(layout: layout)
    var later = try FocusState(layout: Layout(items: []))
    reduce(&later, .replaceLayout(layout))
    #expect(later.selected == ["a"])
    #expect(direct.selected == later.selected)
  }

  @Test(
    "Tab and Shift-Tab walk the loop and wrap",
    arguments: [
      (LayoutDirection.ltr, TabDirection.next, ["t1", "s1", "i1", "d1", "r", "t1"]),
      (.ltr, .previous, ["t1", "r", "d1", "i1", "s1", "t1"]),
      (.rtl, .next, ["t2", "i2", "s1", "d1", "r", "t2"]),
      (.rtl, .previous, ["t2", "r", "d1", "s1", "i2", "t2"]),
    ])
  func walk(direction: LayoutDirection, tab: TabDirection, expected: [String]) throws {
    var state = try FocusState(layout: tabLayout(direction: direction))
    #expect(state.focused == expected[0])
    for (from, to) in zip(expected, expected.dropFirst()) {
      #expect(reduce(&state, .tab(tab)) == tabbed(from, to, tab))
      #expect(state.focused == to)
    }
  }

  @Test("Tab skips stops with nothing focusable (unavailable items, disabled groups)")
  func skipsEmpty() throws {
    var layout = tabLayout()
    layout.items[5].available = false  // d1
    layout.groups[2].groups[0].enabled = false  // inner
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .tab(.next)) == tabbed("t1", "s1", .next))
    #expect(reduce(&state, .tab(.next)) == tabbed("s1", "r", .next))
    #expect(reduce(&state, .tab(.previous)) == tabbed("r", "s1", .previous))
  }

  @Test("with a single stop, Tab and Shift-Tab bump and change nothing")
  func singleStop() throws {
    var state = try FocusState(
      layout: Layout(
        items: [item("a", 0, 0, 100, 100), item("b", 200, 0, 100, 100)],
        groups: [Group(id: "g", items: ["a", "b"])]))
    let before = state
    #expect(reduce(&state, .tab(.next)) == [.movementFailed(.next)])
    #expect(reduce(&state, .tab(.previous)) == [.movementFailed(.previous)])
    #expect(state == before)
  }

  @Test("a second stop with nothing focusable still bumps")
  func onlyOneFocusableStop() throws {
    var state = try FocusState(
      layout: Layout(
        items: [item("a", 0, 0, 100, 100), item("b", 0, 200, 100, 100, available: false)],
        groups: [Group(id: "g", items: ["a"]), Group(id: "h", items: ["b"])]))
    #expect(reduce(&state, .tab(.next)) == [.movementFailed(.next)])
  }

  @Test("Tab returns to the item focused last in a group (previously focused, 1000)")
  func tabRemembers() throws {
    var state = try FocusState(layout: tabLayout())
    reduce(&state, .move(.right))  // t1 → t2
    #expect(state.focused == "t2")
    reduce(&state, .tab(.next))
    #expect(reduce(&state, .tab(.previous)) == tabbed("s1", "t2", .previous))
  }

  @Test(
    "Shift-Tab back to a group's own items returns to the one focused there, after a nested stop")
  func tabBackPastNested() throws {
    let layout = Layout(
      items: [
        item("s1", 0, 0, 100, 100), item("s2", 200, 0, 100, 100), item("i1", 600, 0, 100, 100),
        item("i2", 800, 0, 100, 100),
      ],
      groups: [
        Group(id: "shelf", items: ["s1", "s2"], groups: [Group(id: "inner", items: ["i1", "i2"])])
      ])
    var state = try FocusState(layout: layout)
    reduce(&state, .move(.right))
    #expect(state.focused == "s2")
    #expect(reduce(&state, .tab(.next)) == tabbed("s2", "i1", .next))
    #expect(reduce(&state, .tab(.previous)) == tabbed("i1", "s2", .previous))
    // The memory survives a replacement with the same ids; it goes when the item leaves the
    // group's own items.
    reduce(&state, .tab(.next))
    #expect(reduce(&state, .replaceLayout(layout)) == [])
    #expect(reduce(&state, .tab(.previous)) == tabbed("i1", "s2", .previous))
    reduce(&state, .tab(.next))
    var moved = layout
    moved.groups[0].items = ["s1"]
    moved.groups[0].groups[0].items.append("s2")
    reduce(&state, .replaceLayout(moved))
    #expect(reduce(&state, .tab(.previous)) == tabbed("i1", "s1", .previous))
  }

  /// A modal (m1 m2, with nested buttons b1 b2) over a screen (o1 left of it, o2 below it).
  func modalLayout() -> Layout {
    Layout(
      items: [
        item("o1", 400, 400, 100, 100), item("m1", 800, 400, 100, 100),
        item("m2", 1000, 400, 100, 100), item("b1", 800, 600, 100, 100),
        item("b2", 1000, 600, 100, 100), item("o2", 800, 900, 100, 100),
      ],
      groups: [
        Group(
          id: "modal", items: ["m1", "m2"], groups: [Group(id: "buttons", items: ["b1", "b2"])],
          trapsFocus: true)
      ],
      initialFocus: "m1")
  }

  @Test("a trapping group keeps arrows inside")
  func trapArrows() throws {
    var state = try FocusState(layout: modalLayout())
    let before = state
    #expect(reduce(&state, .move(.left)) == [.movementFailed(.left)])
    #expect(state == before)
    #expect(reduce(&state, .move(.down)) == moved("m1", "b1", .down))
    #expect(reduce(&state, .move(.down)) == [.movementFailed(.down)])
    // Without the trap, both ways out are open.
    var open = modalLayout()
    open.groups[0].trapsFocus = false
    var free = try FocusState(layout: open)
    #expect(reduce(&free, .move(.left)) == moved("m1", "o1", .left))
  }

  @Test("a trapping group keeps Tab inside, cycling its own stops")
  func trapTab() throws {
    var state = try FocusState(layout: modalLayout())
    #expect(reduce(&state, .tab(.next)) == tabbed("m1", "b1", .next))
    #expect(reduce(&state, .tab(.next)) == tabbed("b1", "m1", .next))
    #expect(reduce(&state, .tab(.previous)) == tabbed("m1", "b1", .previous))
    // A trap with one stop: Tab bumps.
    var single = modalLayout()
    single.groups[0].groups = []
    single.groups[0].items += ["b1", "b2"]
    var trapped = try FocusState(layout: single)
    #expect(reduce(&trapped, .tab(.next)) == [.movementFailed(.next)])
  }

  /// A group g of x y z (reading order) and an outside item o, focused first.
  func priorityLayout(
    declaration: [String] = ["x", "y", "z"], preferred: String? = nil,
    priorities: [String: FocusPriority] = [:]
  ) -> Layout {
    let frames = ["x": 0.0, "y": 200, "z": 400]
    var items = [item("o", 0, 300, 100, 100)]
    for id in declaration {
      var member = item(id, frames[id] ?? 0, 0, 100, 100)
      member.priority = priorities[id]
      items.append(member)
    }
    return Layout(
      items: items, groups: [Group(id: "g", items: declaration, preferredFocus: preferred)],
      initialFocus: "o")
  }

  /// Focuses `previously` (if any) and then o again, then asks for group g.
  func enter(_ layout: Layout, previously: String? = nil) throws -> (FocusState, [FocusEffect]) {
    var state = try FocusState(layout: layout)
    if let previously {
      reduce(&state, .requestFocus(.item(previously)))
      reduce(&state, .requestFocus(.item("o")))
      #expect(state.lastFocused == ["g": previously])
    }
    let effects = reduce(&state, .requestFocus(.group("g")))
    return (state, effects)
  }

  func entered(_ id: String) -> [FocusEffect] {
    [.focusChanged(FocusUpdateContext(previous: "o", next: id, heading: .programmatic))]
  }

  @Test("no priorities: the first item in reading order, not declaration order")
  func entryDefault() throws {
    #expect(try enter(priorityLayout(declaration: ["z", "y", "x"])).1 == entered("x"))
  }

  @Test("no priorities: preferredFocus decides")
  func entryPreferred() throws {
    #expect(try enter(priorityLayout(preferred: "z")).1 == entered("z"))
  }

  @Test("previously focused (1000) beats preferredFocus")
  func entryPrevious() throws {
    #expect(try enter(priorityLayout(preferred: "z"), previously: "y").1 == entered("y"))
  }

  @Test("prioritized (2000) beats previously focused")
  func entryPrioritized() throws {
    let layout = priorityLayout(priorities: ["z": .prioritized])
    #expect(try enter(layout, previously: "y").1 == entered("z"))
  }

  @Test(
    "a custom priority only raises an item",
    arguments: [(1500, "x"), (500, "y"), (-7, "y")])
  func entryCustom(raw: Int, expected: String) throws {
    // y was focused before and has a tiny custom priority that must not lower it; x has `raw`.
    let layout = priorityLayout(
      priorities: ["x": FocusPriority(rawValue: raw), "y": FocusPriority(rawValue: 10)])
    #expect(try enter(layout, previously: "y").1 == entered(expected))
  }

  @Test("a custom priority below 0 is the same as none: preferredFocus still decides")
  func entryNegative() throws {
    let layout = priorityLayout(preferred: "y", priorities: ["x": FocusPriority(rawValue: -5)])
    #expect(try enter(layout).1 == entered("y"))
  }

  @Test("equal priorities go to reading order")
  func entryTie() throws {
    let layout = priorityLayout(
      declaration: ["z", "y", "x"], priorities: ["z": .prioritized, "x": .prioritized])
    #expect(try enter(layout).1 == entered("x"))
  }

  @Test("the currently focused item is its group's primary item: asking again changes nothing")
  func entryCurrent() throws {
    var state = try FocusState(layout: priorityLayout(priorities: ["z": .prioritized]))
    reduce(&state, .requestFocus(.item("y")))
    #expect(reduce(&state, .requestFocus(.group("g"))) == [])
    #expect(state.focused == "y")
  }

  @Test("preferredFocus may name a nested group: its primary item")
  func preferredNestedGroup() throws {
    let layout = Layout(
      items: [item("o", 0, 300, 100, 100), item("x", 0, 0, 100, 100), item("y", 200, 0, 100, 100)],
      groups: [
        Group(
          id: "g", items: ["x"], groups: [Group(id: "h", items: ["y"])], preferredFocus: "h")
      ],
      initialFocus: "o")
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .requestFocus(.group("g"))) == entered("y"))
  }

  @Test("an unavailable preferredFocus falls back to reading order")
  func preferredUnavailable() throws {
    var layout = priorityLayout(preferred: "z")
    layout.items[3].available = false
    #expect(try enter(layout).1 == entered("x"))
  }

  /// Row 0 at the top level, row 1 in group "row" (optionally remembering).
  func memoryLayout(remembers: Bool, dy: Double = 0) -> Layout {
    var layout = grid(rows: 2, columns: 4, initialFocus: "r0c0")
    for position in layout.items.indices { layout.items[position].frame.y += dy }
    layout.groups = [
      Group(id: "row", items: ["r1c0", "r1c1", "r1c2", "r1c3"], remembersLastFocused: remembers)
    ]
    return layout
  }

  /// Down into the row, right twice, up, left twice: back on r0c0 with r1c2 last in the row.
  func visitRow(_ state: inout FocusState) {
    for direction: Direction in [.down, .right, .right, .up, .left, .left] {
      reduce(&state, .move(direction))
    }
    #expect(state.focused == "r0c0")
    #expect(state.lastFocused == ["row": "r1c2"])
  }

  @Test(
    "remembersLastFocused: arrows back into the group return to its last item",
    arguments: [(true, "r1c2"), (false, "r1c0")])
  func memory(remembers: Bool, expected: String) throws {
    var state = try FocusState(layout: memoryLayout(remembers: remembers))
    visitRow(&state)
    #expect(reduce(&state, .move(.down)) == moved("r0c0", expected, .down))
  }

  @Test("the memory survives a layout replacement that keeps the ids")
  func memorySurvivesReplacement() throws {
    var state = try FocusState(layout: memoryLayout(remembers: true))
    visitRow(&state)
    #expect(reduce(&state, .replaceLayout(memoryLayout(remembers: true, dy: 15))) == [])
    #expect(state.lastFocused == ["row": "r1c2"])
    #expect(reduce(&state, .move(.down)) == moved("r0c0", "r1c2", .down))
  }

  @Test("a memory whose item is gone is dropped; the geometric winner takes focus")
  func memoryOfRemovedItem() throws {
    var state = try FocusState(layout: memoryLayout(remembers: true))
    visitRow(&state)
    reduce(&state, .applyPatch(LayoutPatch([.removeItem("r1c2")])))
    #expect(state.lastFocused == [:])
    #expect(reduce(&state, .move(.down)) == moved("r0c0", "r1c0", .down))
  }

  @Test("moves inside a remembering group are plain geometry")
  func memoryInside() throws {
    var state = try FocusState(layout: memoryLayout(remembers: true))
    visitRow(&state)
    reduce(&state, .move(.down))
    #expect(reduce(&state, .move(.left)) == moved("r1c2", "r1c1", .left))
  }
}
