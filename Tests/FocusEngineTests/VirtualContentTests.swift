import Testing

@testable import FocusEngine

/// Content on demand: the window each virtual group asks its app to fill (the window in view
/// plus a window on each side, asked once), the content an app supplies, the bound on what a
/// session keeps, and supplied unavailability.
@Suite("Virtual content on demand")
struct VirtualContentTests {
  /// docs/apps.md's row: 1,000,000 titles of 300×170, 40 apart from (60, 400), scrolling
  /// sideways in a 1920-wide viewport: items 0 to 5 are in view at first.
  static func row(count: Int = 1_000_000) -> Layout {
    Layout(
      items: [],
      groups: [
        Group(
          id: "titles", scroll: .horizontal, viewport: Rect(x: 0, y: 380, width: 1920, height: 210),
          virtual: VirtualItems(
            count: count, origin: Point(x: 60, y: 400), itemSize: Size(width: 300, height: 170),
            spacing: Size(width: 40, height: 0), titlePrefix: "Title "))
      ],
      initialFocus: "titles#0")
  }

  /// The ranges asked for in `effects`.
  static func asked(_ effects: [FocusEffect]) -> [Range<Int>] {
    effects.compactMap {
      guard case .itemsInView("titles", let range) = $0 else { return nil }
      return range
    }
  }

  /// The indices in view now, as the screens draw them.
  static func visible(_ state: FocusState) throws -> Range<Int> {
    let group = try #require(state.index.groupIndex["titles"])
    let items = try #require(state.group("titles")?.virtual)
    return try #require(items.region(in: state.virtualView(ofGroup: group))).columns
  }

  static func supplied(_ range: Range<Int>, available: Bool = true) -> [Int: VirtualContent] {
    Dictionary(
      uniqueKeysWithValues: range.map {
        ($0, VirtualContent(title: "Movie \($0)", available: available))
      })
  }

  @Test("a new session asks for the window in view and one window past it (clamped at 0)")
  func firstWindow() throws {
    let state = try FocusState(layout: Self.row())
    #expect(try Self.visible(state) == 0..<6)
    #expect(state.itemsInView == [VirtualRange(group: "titles", range: 0..<12)])
  }

  @Test("moving right asks only for items not asked before, before they come into view")
  func dedupAlongTheRow() throws {
    var state = try FocusState(layout: Self.row())
    var asked: [Range<Int>] = [0..<12]
    var steps = 0
    for _ in 0..<300 {
      let effects = reduce(&state, .move(.right))
      steps += 1
      let new = Self.asked(effects)
      for range in new {
        // Never asked twice: each range starts where the last one asked ended.
        #expect(range.lowerBound == asked.last!.upperBound, "\(range) after \(asked.last!)")
        asked.append(range)
      }
      // The margin: what is in view, and half a window past it, was asked for already.
      let view = try Self.visible(state)
      #expect(view.upperBound + 3 <= asked.last!.upperBound, "\(view) asked \(asked.last!)")
    }
    #expect(state.focused == "titles#300")
    // Deduplicated: about one request per three items, not one per press.
    #expect(asked.count > 50 && asked.count < steps / 2, "\(asked.count) requests")
  }

  @Test("focusing index 900,000 asks for that window whole, once")
  func coastFar() throws {
    var state = try FocusState(layout: Self.row())
    let effects = reduce(&state, .requestFocus(.item("titles#900000")))
    let view = try Self.visible(state)
    #expect(view.contains(900_000))
    let wanted = (view.lowerBound - view.count)..<(view.upperBound + view.count)
    #expect(Self.asked(effects) == [wanted])
    #expect(state.itemsInView == [VirtualRange(group: "titles", range: wanted)])
    // Already asked: focusing a neighbour asks nothing.
    #expect(Self.asked(reduce(&state, .requestFocus(.item("titles#900001")))) == [])
  }

  @Test("supplied content titles items; content outside the wanted window is evicted")
  func eviction() throws {
    var state = try FocusState(layout: Self.row())
    _ = reduce(
      &state,
      .applyPatch(LayoutPatch([.setVirtualContent(group: "titles", items: Self.supplied(0..<12))])))
    #expect(state.item("titles#5")?.title == "Movie 5")
    #expect(state.item("titles#20")?.title == "Title 21")
    #expect(state.group("titles")?.virtual?.content.count == 12)

    _ = reduce(&state, .requestFocus(.item("titles#900000")))
    let wanted = state.itemsInView[0].range
    // Old content stays until content is next set (bounded meanwhile)…
    #expect(state.group("titles")?.virtual?.content.count == 12)
    // …which keeps only the new window's, whatever else is sent.
    _ = reduce(
      &state,
      .applyPatch(
        LayoutPatch([
          .setVirtualContent(
            group: "titles",
            items: Self.supplied(wanted).merging(Self.supplied(0..<3)) { a, _ in a })
        ])))
    let content = try #require(state.group("titles")?.virtual?.content)
    #expect(Set(content.keys) == Set(wanted))
    #expect(state.item("titles#900000")?.title == "Movie 900000")
    #expect(state.item("titles#0")?.title == "Title 1")
  }

  @Test("a group never holds more than 1,024 items' content; more at once is refused")
  func bound() throws {
    // Without a wanted window (a layout not yet in a session), the bound still holds.
    var layout = Self.row()
    for start in stride(from: 0, to: 3000, by: 1000) {
      layout = try LayoutPatch([
        .setVirtualContent(group: "titles", items: Self.supplied(start..<start + 1000))
      ]).applied(to: layout)
      #expect(layout.groups[0].virtual!.content.count <= VirtualItems.maximumContent)
    }
    // The newest (around the last supplied) are kept.
    #expect(layout.groups[0].virtual!.content[2999] != nil)
    #expect(layout.groups[0].virtual!.content[0] == nil)
    #expect(throws: LayoutError.self) {
      try LayoutPatch([.setVirtualContent(group: "titles", items: Self.supplied(0..<1025))])
        .applied(to: Self.row())
    }
    #expect(throws: LayoutError.self) {
      try LayoutPatch([
        .setVirtualContent(group: "titles", items: Self.supplied(999_999..<1_000_001))
      ])
      .applied(to: Self.row())
    }
  }

  @Test("a grid asks one range per row of its wanted window")
  func grid() throws {
    let layout = Layout(
      items: [],
      groups: [
        Group(
          id: "grid", scroll: .both, viewport: Rect(x: 0, y: 0, width: 1000, height: 500),
          virtual: VirtualItems(
            count: 1_000_000, itemSize: Size(width: 100, height: 100),
            arrangement: .grid(columns: 1000)))
      ],
      initialFocus: "grid#0")
    var state = try FocusState(layout: layout)
    // 10 columns × 5 rows in view: rows 0..<10, columns 0..<20 wanted.
    #expect(state.itemsInView.count == 10)
    #expect(state.itemsInView.first == VirtualRange(group: "grid", range: 0..<20))
    #expect(state.itemsInView.last == VirtualRange(group: "grid", range: 9000..<9020))
    let effects = reduce(&state, .requestFocus(.item("grid#500500")))
    let ranges = effects.compactMap { effect -> Range<Int>? in
      guard case .itemsInView("grid", let range) = effect else { return nil }
      return range
    }
    // The rows in view and one window of rows above and below, each the columns in view and
    // one window of columns on each side.
    let view = state.group("grid")!.virtual!.region(
      in: state.virtualView(ofGroup: state.index.groupIndex["grid"]!))!
    #expect(ranges.count == 3 * view.rows.count)
    #expect(ranges.allSatisfy { $0.count == 3 * view.columns.count }, "\(ranges)")
    #expect(Set(ranges.map { $0.lowerBound / 1000 }).count == ranges.count)
    #expect(ranges.contains { $0.contains(500_500) })
  }

  @Test("supplied unavailability: moves skip the item, a focus request is refused, focus leaves it")
  func unavailable() throws {
    var state = try FocusState(layout: Self.row())
    var items = Self.supplied(0..<12)
    items[2]?.available = false
    items[3]?.available = false
    _ = reduce(
      &state, .applyPatch(LayoutPatch([.setVirtualContent(group: "titles", items: items)])))
    _ = reduce(&state, .requestFocus(.item("titles#1")))
    _ = reduce(&state, .move(.right))
    #expect(state.focused == "titles#4")
    _ = reduce(&state, .move(.left))
    #expect(state.focused == "titles#1")
    #expect(state.displayState(of: "titles#2") == .unavailable)
    #expect(state.unavailableVirtualItems == ["titles#2", "titles#3"])
    let denied = reduce(&state, .requestFocus(.item("titles#3")))
    #expect(denied.count == 1)
    if case .focusRequestDenied(let error) = denied.first {
      #expect(error.reason == .unavailable)
    } else {
      Issue.record("not denied: \(denied)")
    }
    // The focused item made unavailable: focus goes to a neighbour that is not.
    _ = reduce(&state, .move(.right))  // titles#4
    items = [4: VirtualContent(title: "Gone", available: false)]
    _ = reduce(
      &state, .applyPatch(LayoutPatch([.setVirtualContent(group: "titles", items: items)])))
    #expect(state.focused == "titles#5", "\(state.focused ?? "none")")
    // Item 0 unavailable: entering the group lands on the first available item.
    var fresh = try FocusState(
      layout: {
        var layout = Self.row()
        layout.groups[0].virtual?.content = [0: VirtualContent(available: false)]
        return layout
      }())
    #expect(fresh.focused == "titles#1")
    _ = reduce(&fresh, .move(.left))
    #expect(fresh.focused == "titles#1")
  }
}
