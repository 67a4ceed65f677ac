import Foundation
import Testing

@testable import FocusEngine

@Suite("Virtual groups")
struct VirtualGroupTests {
  /// A menu button above a 1,000-column grid of 200×100 items 20 apart (origin 100, 200), a
  /// side button left of row 0 and one left of row 2; the grid scrolls both ways in a
  /// 1720×800 viewport.
  func layout(count: Int = 1_000_000, remembers: Bool = false, columns: Int = 1000) -> Layout {
    Layout(
      items: [
        Item(id: "menu", frame: Rect(x: 100, y: 40, width: 200, height: 60)),
        Item(id: "side", frame: Rect(x: 0, y: 200, width: 80, height: 100)),
        Item(id: "side2", frame: Rect(x: 0, y: 440, width: 80, height: 100)),
      ],
      groups: [
        Group(
          id: "grid", remembersLastFocused: remembers, scroll: .both,
          viewport: Rect(x: 100, y: 200, width: 1720, height: 800),
          virtual: VirtualItems(
            count: count, origin: Point(x: 100, y: 200), itemSize: Size(width: 200, height: 100),
            spacing: Size(width: 20, height: 20), arrangement: .grid(columns: columns),
            titlePrefix: "Title "))
      ],
      initialFocus: "menu")
  }

  func focused(_ state: inout FocusState, on id: String) {
    _ = reduce(&state, .requestFocus(.item(id)))
  }

  @Test(
    "arrows move by index arithmetic inside a 1,000,000-item grid",
    arguments: [
      (Direction.right, "grid#500501"), (.left, "grid#500499"), (.down, "grid#501500"),
      (.up, "grid#499500"),
    ])
  func moves(direction: Direction, expected: String) throws {
    var state = try FocusState(layout: layout())
    focused(&state, on: "grid#500500")
    #expect(state.focused == "grid#500500")
    let effects = reduce(&state, .move(direction))
    #expect(state.focused == expected)
    #expect(
      effects.first
        == .focusChanged(
          FocusUpdateContext(
            previous: "grid#500500", next: expected, heading: FocusHeading(direction))
        ))
  }

  @Test("the last row is partial: down from above a missing cell bumps, right stops at the end")
  func partialRow() throws {
    var state = try FocusState(layout: layout(count: 2_500))
    focused(&state, on: "grid#1600")
    #expect(reduce(&state, .move(.down)) == [.movementFailed(.down)])
    focused(&state, on: "grid#2499")
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
    focused(&state, on: "grid#1400")
    _ = reduce(&state, .move(.down))
    #expect(state.focused == "grid#2400")
  }

  @Test("entering picks the geometrically nearest index; leaving at the edges finds listed items")
  func enterAndLeave() throws {
    var state = try FocusState(layout: layout())
    _ = reduce(&state, .move(.down))
    #expect(state.focused == "grid#0")
    _ = reduce(&state, .move(.up))
    #expect(state.focused == "menu")
    focused(&state, on: "side2")
    _ = reduce(&state, .move(.right))
    #expect(state.focused == "grid#2000")
    _ = reduce(&state, .move(.left))
    #expect(state.focused == "side2")
    focused(&state, on: "grid#2")
    #expect(reduce(&state, .move(.up)) == [.movementFailed(.up)])
  }

  @Test("down from a wide menu bar past unavailable items lands where the listed grid does")
  func wideSourcePastUnavailable() throws {
    // A bar over columns 1–7 of an 8×3 grid whose first row holds only columns 0 and 7: the
    // four columns nearest the bar's centre (column 4) have nothing in row 0, column 7 is
    // nearer the centre than column 0.
    let bar = Item(id: "bar", frame: Rect(x: 300, y: 40, width: 1520, height: 60))
    let unavailable = 1...6
    func frame(_ index: Int) -> Rect {
      Rect(
        x: Double(100 + index % 8 * 220), y: Double(200 + index / 8 * 120), width: 200, height: 100)
    }
    let virtual = Layout(
      items: [bar],
      groups: [
        Group(
          id: "grid",
          virtual: VirtualItems(
            count: 24, origin: Point(x: 100, y: 200), itemSize: Size(width: 200, height: 100),
            spacing: Size(width: 20, height: 20), arrangement: .grid(columns: 8),
            content: Dictionary(
              uniqueKeysWithValues: unavailable.map { ($0, VirtualContent(available: false)) })))
      ],
      initialFocus: "bar")
    // The same grid written out as listed items, the same ones unavailable.
    let listed = Layout(
      items: [bar]
        + (0..<24).map {
          Item(id: "cell\($0)", frame: frame($0), available: !unavailable.contains($0))
        },
      groups: [Group(id: "grid", items: (0..<24).map { "cell\($0)" })],
      initialFocus: "bar")
    var state = try FocusState(layout: virtual)
    var reference = try FocusState(layout: listed)
    _ = reduce(&state, .move(.down))
    _ = reduce(&reference, .move(.down))
    #expect(reference.focused == "cell7")
    #expect(state.focused == "grid#7")
  }

  @Test("a remembering virtual group returns to the index focused there last")
  func memory() throws {
    var state = try FocusState(layout: layout(remembers: true))
    focused(&state, on: "grid#123456")
    #expect(state.lastFocused["grid"] == "grid#123456")
    focused(&state, on: "menu")
    _ = reduce(&state, .move(.down))
    #expect(state.focused == "grid#123456")
    var plain = try FocusState(layout: layout(remembers: false))
    focused(&plain, on: "grid#123456")
    focused(&plain, on: "menu")
    _ = reduce(&plain, .move(.down))
    #expect(plain.focused != "grid#123456")
  }

  @Test("focusing a far index scrolls the group so the item lies inside the viewport")
  func scroll() throws {
    var state = try FocusState(layout: layout())
    let effects = reduce(&state, .requestFocus(.item("grid#123456")))
    // Row 123, column 456: content frame x 100 + 456·220, y 200 + 123·120.
    let offset = try #require(state.scrollOffsets["grid"])
    #expect(effects.contains(.scrolled(group: "grid", offset: offset)))
    let frame = try #require(state.presentedFrame(of: "grid#123456"))
    #expect(frame.minX >= 100 && frame.maxX <= 1820)
    #expect(frame.minY >= 200 && frame.maxY <= 1000)
    #expect(offset.x > 456 * 220 - 1720 && offset.y > 123 * 120 - 800)
    // The neighbour to the right is found in the scrolled space too.
    _ = reduce(&state, .move(.right))
    #expect(state.focused == "grid#123457")
  }

  @Test("Tab enters the virtual group at its primary index and wraps back to the top level")
  func tab() throws {
    var state = try FocusState(layout: layout(remembers: true))
    _ = reduce(&state, .tab(.next))
    #expect(state.focused == "grid#0")
    focused(&state, on: "grid#777")
    _ = reduce(&state, .tab(.next))
    #expect(state.focused == "menu")
    _ = reduce(&state, .tab(.previous))
    #expect(state.focused == "grid#777")
  }

  @Test("the pointer hit test finds the virtual item under the pointer")
  func pointer() throws {
    var state = try FocusState(layout: layout())
    // Row 2, column 3: x 760–960, y 440–540.
    let effects = reduce(
      &state,
      .pointer(PointerSample(.moved, position: Point(x: 800, y: 500), at: 1_000_000)))
    #expect(
      effects.first
        == .focusChanged(FocusUpdateContext(previous: "menu", next: "grid#2003", heading: .pointer))
    )
    #expect(state.pointer.target == "grid#2003")
  }

  @Test("programmatic focus by index: in range granted, out of range or malformed unknown")
  func programmatic() throws {
    var state = try FocusState(layout: layout())
    focused(&state, on: "grid#999999")
    #expect(state.focused == "grid#999999")
    for bad in ["grid#1000000", "grid#01", "grid#", "grid#-1", "menu#0"] {
      let effects = reduce(&state, .requestFocus(.item(bad)))
      guard case .focusRequestDenied(let error) = effects.first else {
        Issue.record("\(bad) was not refused: \(effects)")
        continue
      }
      #expect(error.reason == .unknown)
    }
    #expect(state.item("grid#1233")?.title == "Title 1234")
    #expect(state.accessibilityPosition(ofItem: "grid#1233")! == (1234, 1_000_000))
    #expect(state.virtualIndex(of: "grid#42")! == ("grid", 42))
  }

  @Test("announcements place a virtual item among its group's count, with separators")
  func announcement() throws {
    var state = try FocusState(layout: layout())
    focused(&state, on: "grid#1232")
    let before = state
    let effects = reduce(&state, .move(.right))
    var announcer = Announcer()
    let said = announcer.announce(effects, before: before, after: state, at: 1_000_000_000)
    let announced = try #require(said)
    #expect(announced.parts.contains(AnnouncementPart(.position, "1,234 of 1,000,000")))
    #expect(announced.text.contains("Title 1234"))
  }

  @Test("request ids may name a virtual item; plain ids still may not hold #")
  func requestIDs() {
    #expect(TextRules.itemIDProblem("grid#5") == nil)
    #expect(TextRules.itemIDProblem("menu") == nil)
    for bad in ["#5", "grid#05", "gr d#5", "grid#x", "a#b#c"] {
      #expect(TextRules.itemIDProblem(bad) != nil, "\(bad)")
    }
    #expect(TextRules.idProblem("grid#5") != nil)
  }

  @Test("when the count shrinks below the focused index, focus recovers to the last item")
  func shrink() throws {
    var state = try FocusState(layout: layout())
    focused(&state, on: "grid#999999")
    let effects = reduce(&state, .replaceLayout(layout(count: 500)))
    #expect(state.focused == "grid#499")
    #expect(
      effects.first
        == .focusChanged(
          FocusUpdateContext(previous: "grid#999999", next: "grid#499", heading: .recovery)))
    _ = reduce(&state, .replaceLayout(layout(count: 0)))
    #expect(state.focused != nil && state.focused?.hasPrefix("grid#") == false)
  }

  @Test("a fast coast of 10,000 repeated moves crosses a 10,000-item row to the right index")
  func coast() throws {
    let row = Layout(
      items: [],
      groups: [
        Group(
          id: "rail", scroll: .horizontal, viewport: Rect(x: 0, y: 0, width: 1920, height: 300),
          virtual: VirtualItems(
            count: 10_000, origin: Point(x: 60, y: 100), itemSize: Size(width: 300, height: 170),
            spacing: Size(width: 40, height: 0)))
      ])
    var state = try FocusState(layout: row)
    #expect(state.focused == "rail#0")
    for _ in 0..<6_789 { _ = reduce(&state, .move(.right)) }
    #expect(state.focused == "rail#6789")
    for _ in 0..<10_000 { _ = reduce(&state, .move(.right)) }
    #expect(state.focused == "rail#9999")
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
    let frame = try #require(state.presentedFrame(of: "rail#9999"))
    #expect(frame.minX >= 0 && frame.maxX <= 1920)
  }

  @Test(
    "invalid declarations are rejected with a path",
    arguments: [
      (VirtualItems(count: 1_000_000_001, itemSize: Size(width: 1, height: 1)), "count"),
      (VirtualItems(count: -1, itemSize: Size(width: 1, height: 1)), "count"),
      (VirtualItems(count: 5, itemSize: Size(width: 0, height: 1)), "itemSize.width"),
      (
        VirtualItems(
          count: 5, itemSize: Size(width: 1, height: 1), spacing: Size(width: -1, height: 0)),
        "spacing.width"
      ),
      (
        VirtualItems(count: 5, itemSize: Size(width: 1, height: 1), arrangement: .grid(columns: 0)),
        "columns"
      ),
    ])
  func invalid(virtual: VirtualItems, field: String) {
    let layout = Layout(items: [], groups: [Group(id: "g", virtual: virtual)])
    do {
      try layout.validate()
      Issue.record("accepted")
    } catch {
      #expect(error.path == "groups[0].virtual.\(field)")
    }
  }

  @Test("a virtual group lists no items of its own")
  func noListedMembers() {
    let layout = Layout(
      items: [Item(id: "a", frame: Rect(x: 0, y: 0, width: 10, height: 10))],
      groups: [
        Group(
          id: "g", items: ["a"],
          virtual: VirtualItems(count: 3, itemSize: Size(width: 10, height: 10)))
      ])
    #expect(throws: LayoutError.self) { try layout.validate() }
  }

  @Test("the JSON format declares a virtual grid")
  func json() throws {
    let text = """
      {"items": [], "groups": [{"id": "epg", "virtual": {"count": 1000000,
        "itemSize": {"width": 200, "height": 100}, "origin": {"x": 10, "y": 20},
        "spacing": {"width": 4, "height": 6}, "arrangement": "grid", "columns": 500,
        "titlePrefix": "Show "}}], "initialFocus": "epg#501"}
      """
    let layout = try JSONDecoder().decode(Layout.self, from: Data(text.utf8))
    let virtual = try #require(layout.groups.first?.virtual)
    #expect(
      virtual
        == VirtualItems(
          count: 1_000_000, origin: Point(x: 10, y: 20), itemSize: Size(width: 200, height: 100),
          spacing: Size(width: 4, height: 6), arrangement: .grid(columns: 500),
          titlePrefix: "Show "))
    let state = try FocusState(layout: layout)
    #expect(state.focused == "epg#501")
    #expect(state.presentedFrame(of: "epg#501") == Rect(x: 214, y: 126, width: 200, height: 100))
  }
}
