import Testing

@testable import FocusEngine

/// Stable keys (``VirtualContent/key``): a keyed virtual item is named `group#=key` too, and
/// focus, selection and remembered focus follow its key when a patch moves it.
@Suite("Virtual items with stable keys")
struct VirtualKeyTests {
  /// A menu button above a row of `count` titles that remembers its last focused item and
  /// selects what is focused; items `keyed` carry content keyed `movie-(i - shift)`.
  static func layout(count: Int = 1_000, keyed: Range<Int> = 0..<12, shift: Int = 0) -> Layout {
    Layout(
      items: [Item(id: "menu", frame: Rect(x: 60, y: 100, width: 200, height: 80))],
      groups: [
        Group(
          id: "titles", remembersLastFocused: true, selectionFollowsFocus: true,
          scroll: .horizontal, viewport: Rect(x: 0, y: 380, width: 1920, height: 210),
          virtual: VirtualItems(
            count: count, origin: Point(x: 60, y: 400), itemSize: Size(width: 300, height: 170),
            spacing: Size(width: 40, height: 0), titlePrefix: "Title ",
            content: content(keyed, shift: shift)))
      ],
      initialFocus: "menu")
  }

  static func content(_ range: Range<Int>, shift: Int = 0) -> [Int: VirtualContent] {
    Dictionary(
      uniqueKeysWithValues: range.map {
        ($0, VirtualContent(title: "Movie \($0 - shift)", key: "movie-\($0 - shift)"))
      })
  }

  /// The app inserts `inserted` items before the others: the group declared anew with the
  /// new count and content.
  static func insert(_ inserted: Int, count: Int = 1_000, keyed: Range<Int>? = nil) -> LayoutPatch {
    var group = layout().groups[0]
    group.virtual?.count = count + inserted
    group.virtual?.content = content(
      keyed ?? (0..<12 + inserted), shift: inserted)
    return LayoutPatch([.removeGroup("titles"), .addGroup(group, parent: nil)])
  }

  @Test("focus by key: group#=key names the keyed item, never an index")
  func focusByKey() throws {
    var state = try FocusState(layout: Self.layout())
    _ = reduce(&state, .requestFocus(.item("titles#=movie-5")))
    #expect(state.focused == "titles#5")
    #expect(state.item("titles#=movie-7")?.id == "titles#7")
    // A key that is only digits still names by key: "movie" keys aside, "7" is nobody's key.
    let unknown = reduce(&state, .requestFocus(.item("titles#=7")))
    guard case .focusRequestDenied(let error) = unknown.first else {
      Issue.record("a missing key was granted: \(unknown)")
      return
    }
    #expect(error.reason == .unknown)
    #expect(state.focused == "titles#5")
    // A digit key names its item, and the index form still names the index.
    var layout = Self.layout()
    layout.groups[0].virtual?.content[9] = VirtualContent(key: "3")
    var digits = try FocusState(layout: layout)
    _ = reduce(&digits, .requestFocus(.item("titles#=3")))
    #expect(digits.focused == "titles#9")
    _ = reduce(&digits, .requestFocus(.item("titles#3")))
    #expect(digits.focused == "titles#3")
  }

  @Test("an insert before the focused item keeps focus, selection and memory on its key")
  func followsInsert() throws {
    var state = try FocusState(layout: Self.layout())
    _ = reduce(&state, .requestFocus(.item("titles#5")))
    #expect(state.selected == ["titles#5"])
    let effects = reduce(&state, .applyPatch(Self.insert(3)))
    #expect(state.focused == "titles#8")
    #expect(
      effects.first
        == .focusChanged(
          FocusUpdateContext(previous: "titles#5", next: "titles#8", heading: .recovery)))
    #expect(state.selected == ["titles#8"])
    #expect(state.lastFocused["titles"] == "titles#8")
    // Remembered focus: leave the row, insert two more, come back to the same title.
    _ = reduce(&state, .requestFocus(.item("menu")))
    #expect(state.focused == "menu")
    _ = reduce(&state, .applyPatch(Self.insert(5)))
    #expect(state.lastFocused["titles"] == "titles#10")
    _ = reduce(&state, .requestFocus(.group("titles")))
    #expect(state.focused == "titles#10")
    #expect(state.item("titles#10")?.title == "Movie 5")
  }

  @Test("content supplied for another index moves the key's focus there")
  func followsSuppliedContent() throws {
    var state = try FocusState(layout: Self.layout())
    _ = reduce(&state, .requestFocus(.item("titles#5")))
    let patch = LayoutPatch([
      .setVirtualContent(
        group: "titles", items: [6: VirtualContent(title: "Movie 5", key: "movie-5")])
    ])
    _ = reduce(&state, .applyPatch(patch))
    #expect(state.focused == "titles#6")
    // The entry that carried the key at 5 went: its item moved.
    #expect(state.group("titles")?.virtual?.content[5] == nil)
  }

  @Test("a key no longer supplied falls back to the index rules")
  func fallback() throws {
    var state = try FocusState(layout: Self.layout())
    _ = reduce(&state, .requestFocus(.item("titles#5")))
    // Content now covers 20..<32 only: movie-5 is nowhere, focus stays on index 5.
    _ = reduce(&state, .applyPatch(Self.insert(3, keyed: 20..<32)))
    #expect(state.focused == "titles#5")
    // The count falls below the focused index and its key is gone: the last item.
    _ = reduce(&state, .requestFocus(.item("titles#900")))
    _ = reduce(&state, .applyPatch(Self.insert(0, count: 100, keyed: 0..<12)))
    #expect(state.focused == "titles#99")
  }

  @Test(
    "keys are validated: an id, unique within the group's content",
    arguments: [
      ([3: VirtualContent(key: "a"), 7: VirtualContent(key: "a")], "content[7].key"),
      ([2: VirtualContent(key: "a b")], "content[2].key"),
      ([2: VirtualContent(key: "")], "content[2].key"),
      ([2: VirtualContent(key: "x#1")], "content[2].key"),
    ])
  func invalid(content: [Int: VirtualContent], path: String) {
    var layout = Self.layout()
    layout.groups[0].virtual?.content = content
    #expect {
      try layout.validate()
    } throws: { error in
      (error as? LayoutError)?.path == "groups[0].virtual.\(path)"
    }
  }

  @Test("request ids may name a keyed item; the key must be an id")
  func requestIDs() {
    #expect(VirtualItems.id(group: "titles", key: "movie-5") == "titles#=movie-5")
    #expect(TextRules.itemIDProblem("titles#=movie-5") == nil)
    #expect(TextRules.itemIDProblem("titles#=42") == nil)
    for bad in ["titles#=", "#=a", "titles#=a#b", "titles#=a=b", "titles#==a"] {
      #expect(TextRules.itemIDProblem(bad) != nil, "\(bad)")
    }
    #expect(VirtualItems.parse("titles#=42") == nil)
    #expect(VirtualItems.parseKey("titles#42") == nil)
  }
}
