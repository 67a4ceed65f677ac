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

  @Test("a changed title is removed and added again, keeping focus when it had it")
  func changedItem() {
    var new = Self.base
    new.items[1].title = "B"
    #expect(
      LayoutDiff.commands(from: Self.base, to: new, focused: "b") == [
        .patch(
          LayoutPatch(
            [.removeItem("b"), .addItem(new.items[1], group: "row")], focus: .item("b")))
      ])
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
