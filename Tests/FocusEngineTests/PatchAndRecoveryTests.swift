import Testing

@testable import FocusEngine

/// A recovery update.
func recovered(_ from: String?, _ to: String?) -> [FocusEffect] {
  [.focusChanged(FocusUpdateContext(previous: from, next: to, heading: .recovery))]
}

@Suite("Layout patches")
struct LayoutPatchTests {
  /// a b on the first line (b in group g), c on the second; a guide to c.
  func base() -> Layout {
    Layout(
      items: [item("a", 0, 0, 100, 100), item("b", 200, 0, 100, 100), item("c", 0, 200, 100, 100)],
      groups: [Group(id: "g", items: ["b"])], initialFocus: "a",
      guides: [
        FocusGuide(id: "gd", frame: Rect(x: 0, y: 500, width: 10, height: 10), destinations: ["c"])
      ])
  }

  func patched(_ operations: [LayoutPatch.Operation]) throws -> FocusState {
    var state = try FocusState(layout: base())
    #expect(reduce(&state, .applyPatch(LayoutPatch(operations))) == [])
    return state
  }

  @Test("addItem appends the item and adds it to its group")
  func addItem() throws {
    let d = item("d", 200, 200, 100, 100)
    var expected = base()
    expected.items.append(d)
    expected.groups[0].items.append("d")
    #expect(try patched([.addItem(d, group: "g")]).layout == expected)
    var top = base()
    top.items.append(d)
    #expect(try patched([.addItem(d, group: nil)]).layout == top)
  }

  @Test(
    "addItem before an item puts it there, and in its group before the first of the group's items after it"
  )
  func addItemBefore() throws {
    let d = item("d", 200, 200, 100, 100)
    // Before c (not in g): the layout's a b d c; g holds only b, before d, so d goes last.
    var expected = base()
    expected.items.insert(d, at: 2)
    expected.groups[0].items.append("d")
    #expect(try patched([.addItem(d, group: "g", before: "c")]).layout == expected)
    // Before a: d a b c, and in g before b (the first of g's items after d).
    expected = base()
    expected.items.insert(d, at: 0)
    expected.groups[0].items.insert("d", at: 0)
    #expect(try patched([.addItem(d, group: "g", before: "a")]).layout == expected)
    #expect(throws: LayoutError.self) {
      try LayoutPatch([.addItem(d, group: nil, before: "nope")]).applied(to: base())
    }
  }

  @Test("removeItem drops the item and every mention of it (a guide left empty goes too)")
  func removeItem() throws {
    var expected = base()
    expected.items.remove(at: 2)
    expected.guides = []
    #expect(try patched([.removeItem("c")]).layout == expected)
    var withoutB = base()
    withoutB.items.remove(at: 1)
    withoutB.groups[0].items = []
    #expect(try patched([.removeItem("b")]).layout == withoutB)
  }

  @Test("moveItem and setItemAvailable change one item")
  func moveAndAvailability() throws {
    var expected = base()
    expected.items[2].frame = Rect(x: -50, y: 900, width: 0, height: 0)
    expected.items[1].available = false
    let state = try patched([
      .moveItem("c", frame: Rect(x: -50, y: 900, width: 0, height: 0)),
      .setItemAvailable("b", false),
    ])
    #expect(state.layout == expected)
    #expect(state.displayState(of: "b") == .unavailable)
  }

  @Test("groups are added (nested or top level), disabled, enabled and removed with their items")
  func groups() throws {
    var expected = base()
    expected.groups[0].groups = [Group(id: "h", items: ["c"])]
    expected.groups.append(Group(id: "k"))
    let state = try patched([
      .addGroup(Group(id: "h", items: ["c"]), parent: "g"), .addGroup(Group(id: "k"), parent: nil),
    ])
    #expect(state.layout == expected)

    var disabled = state
    reduce(&disabled, .applyPatch(LayoutPatch([.setGroupEnabled("g", false)])))
    #expect(disabled.displayState(of: "b") == .unavailable)
    #expect(disabled.displayState(of: "c") == .unavailable)
    reduce(&disabled, .applyPatch(LayoutPatch([.setGroupEnabled("g", true)])))
    #expect(disabled.layout == expected)

    var removed = state
    reduce(&removed, .applyPatch(LayoutPatch([.removeGroup("g")])))
    #expect(
      removed.layout
        == Layout(
          items: [item("a", 0, 0, 100, 100)], groups: [Group(id: "k")], initialFocus: "a"))
  }

  @Test("removing a group clears preferredFocus naming it and guides belonging to it")
  func removeGroupStrips() throws {
    var layout = base()
    layout.groups[0].groups = [Group(id: "h", items: ["c"])]
    layout.groups[0].preferredFocus = "h"
    layout.guides.append(
      FocusGuide(
        id: "inside", frame: Rect(x: 0, y: 0, width: 1, height: 1), destinations: ["a"],
        group: "h"))
    var state = try FocusState(layout: layout)
    reduce(&state, .applyPatch(LayoutPatch([.removeGroup("h")])))
    var expected = base()
    expected.items.remove(at: 2)
    expected.guides = []
    #expect(state.layout == expected)
  }

  @Test("guides are added, disabled and removed")
  func guides() throws {
    let extra = FocusGuide(
      id: "gd2", frame: Rect(x: 0, y: 0, width: 1, height: 1), destinations: ["gd", "g"])
    var expected = base()
    expected.guides.append(extra)
    expected.guides[0].enabled = false
    let state = try patched([.addGuide(extra), .setGuideEnabled("gd", false)])
    #expect(state.layout == expected)
    var removed = state
    reduce(&removed, .applyPatch(LayoutPatch([.removeGuide("gd")])))
    var withoutFirst = base()
    withoutFirst.guides = [FocusGuide(id: "gd2", frame: extra.frame, destinations: ["g"])]
    #expect(removed.layout == withoutFirst)
  }

  @Test(
    "an invalid patch is rejected with the path and reason, and nothing changes",
    arguments: [
      (
        [
          LayoutPatch.Operation.moveItem("a", frame: Rect(x: 1, y: 1, width: 1, height: 1)),
          .removeItem("zz"),
        ],
        LayoutError(path: "operations[1]", reason: #"unknown item "zz""#)
      ),
      (
        [.addItem(item("n", 0, 0, 1, 1), group: "nope")],
        LayoutError(path: "operations[0]", reason: #"unknown group "nope""#)
      ),
      (
        [.removeGroup("nope")], LayoutError(path: "operations[0]", reason: #"unknown group "nope""#)
      ),
      (
        [.setGuideEnabled("nope", true)],
        LayoutError(path: "operations[0]", reason: #"unknown guide "nope""#)
      ),
      (
        [.addItem(item("a", 0, 0, 1, 1), group: nil)],
        LayoutError(path: "items[3].id", reason: #"duplicate id "a" (first used by items[0])"#)
      ),
      (
        [.moveItem("b", frame: Rect(x: 0, y: 0, width: -1, height: 1))],
        LayoutError(path: "items[1].frame", reason: "width must not be negative, got -1.0")
      ),
      (
        [.addGroup(Group(id: "h", items: ["b"]), parent: nil)],
        LayoutError(path: "groups[1].items[0]", reason: #"item "b" is already in group "g""#)
      ),
    ])
  func rejected(operations: [LayoutPatch.Operation], error: LayoutError) throws {
    var state = try FocusState(layout: base())
    reduce(&state, .move(.right))
    let before = state
    #expect(reduce(&state, .applyPatch(LayoutPatch(operations))) == [.layoutRejected(error)])
    #expect(state == before)
  }

  @Test("an invalid replacement layout is rejected and nothing changes")
  func rejectedReplacement() throws {
    var state = try FocusState(layout: base())
    let before = state
    let bad = Layout(items: [item("a", 0, 0, 1, 1), item("a", 0, 0, 1, 1)])
    #expect(
      reduce(&state, .replaceLayout(bad)) == [
        .layoutRejected(
          LayoutError(path: "items[1].id", reason: #"duplicate id "a" (first used by items[0])"#))
      ])
    #expect(state == before)
  }
}

@Suite("Focus recovery after layout changes")
struct RecoveryTests {
  /// A 3×3 grid whose middle row is group "row", preferring its last item.
  func rowLayout() -> Layout {
    var layout = grid()
    layout.groups = [Group(id: "row", items: ["r1c0", "r1c1", "r1c2"], preferredFocus: "r1c2")]
    return layout
  }

  @Test("after a directional move: the item nearest the vanished item's last frame")
  func afterMove() throws {
    var state = try FocusState(layout: rowLayout())
    reduce(&state, .move(.down))
    reduce(&state, .move(.right))
    #expect(state.focused == "r1c1")
    // r0c1, r1c0, r1c2, r2c1 are all 40 away; r0c1 and r2c1 have the nearer centres; r0c1
    // reads first.
    let effects = reduce(&state, .applyPatch(LayoutPatch([.removeItem("r1c1")])))
    #expect(effects == recovered("r1c1", "r0c1"))
    #expect(state.focused == "r0c1")
  }

  @Test("after a directional move, an item made unavailable recovers to the nearest too")
  func unavailableAfterMove() throws {
    var state = try FocusState(layout: rowLayout())
    reduce(&state, .move(.right))
    reduce(&state, .move(.right))
    let effects = reduce(&state, .applyPatch(LayoutPatch([.setItemAvailable("r0c2", false)])))
    // r0c1 (40 to the left) and r1c2 (40 below): r1c2's centre is nearer (240 vs 340).
    #expect(effects == recovered("r0c2", "r1c2"))
  }

  @Test("after a directional move inside a trap, the nearest item inside the trap")
  func afterMoveInTrap() throws {
    let layout = Layout(
      items: [
        item("m1", 0, 0, 100, 100), item("m2", 400, 0, 100, 100), item("o", 520, 0, 100, 100),
      ],
      groups: [Group(id: "modal", items: ["m1", "m2"], trapsFocus: true)], initialFocus: "m1")
    var state = try FocusState(layout: layout)
    reduce(&state, .move(.right))
    #expect(state.focused == "m2")
    // "o" is nearer to m2's frame, but focus was trapped in the modal.
    let effects = reduce(&state, .applyPatch(LayoutPatch([.removeItem("m2")])))
    #expect(effects == recovered("m2", "m1"))
  }

  @Test("after a programmatic focus: the primary item of the enclosing group")
  func afterRequest() throws {
    var state = try FocusState(layout: rowLayout())
    reduce(&state, .requestFocus(.item("r1c1")))
    let effects = reduce(&state, .applyPatch(LayoutPatch([.removeItem("r1c1")])))
    #expect(effects == recovered("r1c1", "r1c2"))
  }

  @Test("after Tab: the enclosing group's primary item, not the nearest")
  func afterTab() throws {
    var state = try FocusState(layout: rowLayout())
    #expect(reduce(&state, .tab(.next)) == tabbed("r0c0", "r1c2", .next))
    // preferredFocus is stripped with its item; the remaining row reads r1c0 first. The nearest
    // to r1c2's frame would have been r0c2.
    let effects = reduce(&state, .applyPatch(LayoutPatch([.removeItem("r1c2")])))
    #expect(effects == recovered("r1c2", "r1c0"))
  }

  @Test("the nearest enclosing group that survives decides")
  func survivingAncestor() throws {
    let layout = Layout(
      items: [
        item("top", 0, 0, 100, 100), item("x", 0, 300, 100, 100), item("y", 200, 300, 100, 100),
        item("z", 600, 300, 100, 100),
      ],
      groups: [
        Group(
          id: "outer", items: ["z"], groups: [Group(id: "inner", items: ["x", "y"])],
          preferredFocus: "z")
      ])
    var state = try FocusState(layout: layout)
    reduce(&state, .requestFocus(.item("y")))
    #expect(reduce(&state, .applyPatch(LayoutPatch([.removeItem("y")]))) == recovered("y", "x"))
    #expect(
      reduce(&state, .applyPatch(LayoutPatch([.removeGroup("inner")]))) == recovered("x", "z"))
  }

  @Test("nothing focusable: focus becomes none, and comes back by the initial-focus rule")
  func nothingLeft() throws {
    var layout = grid(rows: 1, columns: 2)
    layout.groups = [Group(id: "all", items: ["r0c0", "r0c1"])]
    var state = try FocusState(layout: layout)
    reduce(&state, .selectDown)
    let effects = reduce(&state, .applyPatch(LayoutPatch([.setGroupEnabled("all", false)])))
    #expect(effects == recovered("r0c0", nil))
    #expect(state.focused == nil)
    #expect(state.pressed == nil)
    #expect(reduce(&state, .selectDown) == [])
    #expect(reduce(&state, .tab(.next)) == [.movementFailed(.next)])
    #expect(
      reduce(&state, .applyPatch(LayoutPatch([.setGroupEnabled("all", true)]))) == [
        .focusChanged(FocusUpdateContext(previous: nil, next: "r0c0", heading: .initial))
      ])
  }

  @Test("the update context carries the cause of a layout change")
  func causeOfRecovery() throws {
    var state = try FocusState(layout: grid(rows: 1, columns: 2))
    let cause = FocusCause(sender: "screen", sequence: 7)
    #expect(
      reduce(&state, .applyPatch(LayoutPatch([.removeItem("r0c0")])), cause: cause) == [
        .focusChanged(
          FocusUpdateContext(previous: "r0c0", next: "r0c1", heading: .recovery, cause: cause))
      ])
  }
}
