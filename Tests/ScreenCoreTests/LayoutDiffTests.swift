import FocusEngine
import ScreenCore
import Testing

/// A page's whole new layout as commands against the broker's: patches where a patch says it,
/// else a replacement that keeps focus.
@Suite("LayoutDiff")
struct LayoutDiffTests {
  static func item(_ id: String, x: Double = 0, title: String = "") -> Item {
    Item(id: id, title: title, frame: Rect(x: x, y: 0, width: 10, height: 10))
  }

  static let base = Layout(
    items: [item("a"), item("b", x: 20), item("c", x: 40)],
    groups: [Group(id: "row", items: ["a", "b"])])

  @Test("no change: no command")
  func same() {
    #expect(LayoutDiff.commands(from: Self.base, to: Self.base, focused: "a") == [])
  }

  @Test("removed, moved and unavailable items (in the old order), then added ones, are one patch")
  func items() {
    var new = Self.base
    new.items.remove(at: 2)
    new.items[0].frame.x = 5
    new.items[1].available = false
    new.items.append(Self.item("d", x: 60))
    new.groups[0].items.append("d")
    #expect(
      LayoutDiff.commands(from: Self.base, to: new, focused: "a") == [
        .patch(
          LayoutPatch([
            .moveItem("a", frame: Rect(x: 5, y: 0, width: 10, height: 10)),
            .setItemAvailable("b", false), .removeItem("c"),
            .addItem(Self.item("d", x: 60), group: "row"),
          ]))
      ])
  }

  @Test("a removed group goes with its items; an added group is added empty, then its items")
  func groups() {
    var new = Self.base
    new.items.removeAll { $0.id != "c" }
    new.groups = [Group(id: "page", items: ["p"], trapsFocus: true)]
    new.items.append(Self.item("p", x: 80))
    #expect(
      LayoutDiff.commands(from: Self.base, to: new, focused: "a") == [
        .patch(
          LayoutPatch([
            .removeGroup("row"), .addGroup(Group(id: "page", trapsFocus: true), parent: nil),
            .addItem(Self.item("p", x: 80), group: "page"),
          ]))
      ])
  }

  @Test(
    "a changed title is removed and added again in its place, keeping focus when it had it")
  func changedItem() throws {
    var new = Self.base
    new.items[1].title = "B"
    let commands = LayoutDiff.commands(from: Self.base, to: new, focused: "b")
    #expect(
      commands == [
        .patch(
          LayoutPatch(
            [.removeItem("b"), .addItem(new.items[1], group: "row", before: "c")],
            focus: .item("b")))
      ])
    try Self.expectApplied(commands, from: Self.base, gives: new)
  }

  /// A row of `count` items, `r0`, `r1`, …, in one group.
  static func row(_ count: Int) -> Layout {
    let items = (0..<count).map { item("r\($0)", x: Double($0) * 20) }
    return Layout(items: items, groups: [Group(id: "row", items: items.map(\.id))])
  }

  /// Expects `commands` to be one patch that turns `old` into exactly `new`.
  static func expectApplied(
    _ commands: [AppCommand], from old: Layout, gives new: Layout,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    guard commands.count == 1, case .patch(let patch) = commands[0] else {
      Issue.record("not one patch: \(commands)", sourceLocation: sourceLocation)
      return
    }
    #expect(try patch.applied(to: old) == new, sourceLocation: sourceLocation)
  }

  @Test("a reorder inside a group re-adds only the items off the longest run both orders share")
  func reorder() throws {
    let old = Self.row(4)
    var new = old
    new.items.swapAt(1, 2)
    new.groups[0].items.swapAt(1, 2)
    // r0, r1 and r3 keep their place (old positions 0, 1, 3 increase in the new order); r2
    // goes before r1 again, keeping focus.
    let commands = LayoutDiff.commands(from: old, to: new, focused: "r2")
    #expect(
      commands == [
        .patch(
          LayoutPatch(
            [.removeItem("r2"), .addItem(old.items[2], group: "row", before: "r1")],
            focus: .item("r2")))
      ])
    try Self.expectApplied(commands, from: old, gives: new)
  }

  @Test("an item inserted before others, and an item moved to another group, are patches")
  func insertAndRegroup() throws {
    let old = Self.row(3)
    var inserted = old
    inserted.items.insert(Self.item("x", x: 5), at: 1)
    inserted.groups[0].items.insert("x", at: 1)
    let commands = LayoutDiff.commands(from: old, to: inserted, focused: "r0")
    #expect(
      commands == [.patch(LayoutPatch([.addItem(inserted.items[1], group: "row", before: "r1")]))]
    )
    try Self.expectApplied(commands, from: old, gives: inserted)
    var regrouped = old
    regrouped.groups[0].items.removeLast()
    regrouped.groups.append(Group(id: "other", items: ["r2"]))
    try Self.expectApplied(
      LayoutDiff.commands(from: old, to: regrouped, focused: "r2"), from: old, gives: regrouped)
  }

  /// The operations of `commands`, one patch (0 when it is not one).
  static func size(_ commands: [AppCommand]) -> Int {
    guard commands.count == 1, case .patch(let patch) = commands[0] else { return 0 }
    return patch.operations.count
  }

  @Test(
    "one item inserted, removed or moved in a row of 10,000 is a patch of at most two operations")
  func proportional() throws {
    let old = Self.row(10_000)
    var inserted = old
    inserted.items.insert(Self.item("x", x: -20), at: 0)
    inserted.groups[0].items.insert("x", at: 0)
    var removed = old
    removed.items.remove(at: 1)
    removed.groups[0].items.remove(at: 1)
    var toFront = old
    toFront.items.insert(toFront.items.removeLast(), at: 0)
    toFront.groups[0].items.insert(toFront.groups[0].items.removeLast(), at: 0)
    var toBack = old
    toBack.items.append(toBack.items.removeFirst())
    toBack.groups[0].items.append(toBack.groups[0].items.removeFirst())
    for (name, new, most) in [
      ("inserted at 0", inserted, 1), ("removed at 1", removed, 1),
      ("last moved to the front", toFront, 2), ("first moved to the back", toBack, 2),
    ] {
      let commands = LayoutDiff.commands(from: old, to: new, focused: "r0")
      #expect(
        (1...most).contains(Self.size(commands)),
        "\(name): \(Self.size(commands)) operations (0: not one patch)")
      try Self.expectApplied(commands, from: old, gives: new)
    }
  }

  @Test("a reorder of more than the positional limit re-adds the items after the kept prefix")
  func largeReorder() throws {
    let old = Self.row(200)
    var reversed = old
    reversed.items.reverse()
    reversed.groups[0].items.reverse()
    let commands = LayoutDiff.commands(from: old, to: reversed, focused: "r0")
    // r199 is the kept prefix; the other 199 are removed and appended (no `before`).
    #expect(Self.size(commands) == 2 * 199)
    try Self.expectApplied(commands, from: old, gives: reversed)
  }

  @Test("groups reordered among their siblings, or listed out of the items' order, replace")
  func unorderedReplaces() {
    let old = Layout(
      items: [Self.item("a"), Self.item("b", x: 20)],
      groups: [Group(id: "one", items: ["a"]), Group(id: "two", items: ["b"])])
    var swapped = old
    swapped.groups.swapAt(0, 1)
    var expected = swapped
    expected.initialFocus = "b"
    #expect(
      LayoutDiff.commands(from: old, to: swapped, focused: "b") == [.replaceLayout(expected)])
    var listed = Self.row(3)
    listed.groups[0].items.swapAt(0, 1)
    #expect(
      LayoutDiff.commands(from: Self.row(3), to: listed, focused: nil) == [.replaceLayout(listed)])
  }

  @Test(
    "random edits of a page (reorders, insertions, removals, changes) patch to exactly the new layout"
  )
  func randomEdits() throws {
    var random = SplitMix64(seed: 27)
    for _ in 0..<200 {
      let old = Self.row(2 + random.below(8))
      var ids = old.items.map(\.id)
      for _ in 0..<(1 + random.below(3)) {
        switch random.below(4) {
        case 0: ids.swapAt(random.below(ids.count), random.below(ids.count))
        case 1: ids.insert("n\(random.below(1000))", at: random.below(ids.count + 1))
        case 2: if ids.count > 1 { ids.remove(at: random.below(ids.count)) }
        default: ids.append("t\(random.below(1000))")
        }
      }
      ids = ids.reduce(into: []) { seen, id in if !seen.contains(id) { seen.append(id) } }
      let items = ids.enumerated().map { position, id in
        var item = old.items.first { $0.id == id } ?? Self.item(id)
        if random.below(6) == 0 { item.title = "changed" }
        if random.below(4) == 0 { item.frame.x = Double(position) * 30 }
        return item
      }
      let new = Layout(items: items, groups: [Group(id: "row", items: ids)])
      let commands = LayoutDiff.commands(from: old, to: new, focused: ids.first)
      if old == new { continue }
      try Self.expectApplied(commands, from: old, gives: new)
    }
  }

  @Test("what a patch cannot say replaces the layout, keeping the focused item")
  func replacement() {
    var canvas = Self.base
    canvas.canvas = Size(width: 800, height: 600)
    var expected = canvas
    expected.initialFocus = "b"
    #expect(
      LayoutDiff.commands(from: Self.base, to: canvas, focused: "b") == [
        .replaceLayout(expected)
      ])
    var options = Self.base
    options.groups[0].trapsFocus = true
    #expect(
      LayoutDiff.commands(from: Self.base, to: options, focused: "gone") == [
        .replaceLayout(options)
      ])
    let empty = Layout(items: [])
    #expect(
      LayoutDiff.commands(from: empty, to: Self.base, focused: nil) == [.replaceLayout(Self.base)])
  }
}
