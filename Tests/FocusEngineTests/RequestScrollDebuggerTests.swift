import Testing

@testable import FocusEngine

@Suite("Programmatic focus requests")
struct FocusRequestTests {
  /// o1 and a modal (m1, and group "box" holding "dup" and the unavailable "off"); an item and
  /// a group both called "dup"; a disabled group "dead".
  func layout(trap: Bool = false) -> Layout {
    Layout(
      items: [
        item("o1", 0, 0, 100, 100), item("m1", 400, 0, 100, 100), item("dup", 600, 0, 100, 100),
        item("off", 800, 0, 100, 100, available: false), item("z", 0, 400, 100, 100),
        item("zz", 200, 400, 100, 100),
      ],
      groups: [
        Group(
          id: "modal", items: ["m1"], groups: [Group(id: "box", items: ["dup", "off"])],
          trapsFocus: trap),
        Group(id: "dup", items: ["z"]),
        Group(id: "dead", items: ["zz"], enabled: false),
      ],
      initialFocus: trap ? "m1" : "o1")
  }

  func request(_ target: FocusTarget, trap: Bool = false) throws -> (FocusState, [FocusEffect]) {
    var state = try FocusState(layout: layout(trap: trap))
    let effects = reduce(&state, .requestFocus(target))
    return (state, effects)
  }

  @Test(
    "granted requests focus the item, or the group's primary item, heading programmatic",
    arguments: [
      (FocusTarget.item("m1"), "m1"), (.item("dup"), "dup"), (.group("dup"), "z"),
      (.group("modal"), "m1"), (.group("box"), "dup"), (.any("m1"), "m1"), (.any("box"), "dup"),
    ])
  func granted(target: FocusTarget, expected: String) throws {
    let cause = FocusCause(sender: "app", sequence: 3)
    var state = try FocusState(layout: layout())
    #expect(
      reduce(&state, .requestFocus(target), cause: cause) == [
        .focusChanged(
          FocusUpdateContext(previous: "o1", next: expected, heading: .programmatic, cause: cause))
      ])
    #expect(state.focused == expected)
    #expect(state.checkFocusRequest(target) == .success(expected))
  }

  @Test(
    "refused requests say why and change nothing",
    arguments: [
      (FocusTarget.item("nope"), FocusRequestError.Reason.unknown, false),
      (.group("nope"), .unknown, false), (.any("nope"), .unknown, false),
      (.any("dup"), .ambiguous, false), (.item("off"), .unavailable, false),
      (.item("zz"), .unavailable, false), (.group("dead"), .unavailable, false),
      (.item("o1"), .outsideTrappingGroup, true), (.group("dup"), .outsideTrappingGroup, true),
      (.item("off"), .unavailable, true),
    ])
  func refused(target: FocusTarget, reason: FocusRequestError.Reason, trap: Bool) throws {
    var state = try FocusState(layout: layout(trap: trap))
    let before = state
    let effects = reduce(&state, .requestFocus(target))
    #expect(state == before)
    try #require(effects.count == 1)
    guard case .focusRequestDenied(let error) = effects[0] else {
      Issue.record("expected a denial, got \(effects)")
      return
    }
    let name: String =
      switch target {
      case .item(let id), .group(let id), .any(let id): id
      }
    #expect(error.reason == reason)
    #expect(error.target == name)
    #expect(!error.message.isEmpty)
    #expect(state.checkFocusRequest(target) == .failure(error))
  }

  @Test("inside a trap, targets inside it are granted")
  func insideTrap() throws {
    let (state, effects) = try request(.group("box"), trap: true)
    #expect(
      effects == [
        .focusChanged(FocusUpdateContext(previous: "m1", next: "dup", heading: .programmatic))
      ])
    #expect(state.focused == "dup")
  }

  @Test("asking for the focused item changes nothing and says nothing")
  func alreadyFocused() throws {
    let (state, effects) = try request(.item("o1"))
    #expect(effects == [])
    #expect(state.focused == "o1")
  }

  @Test("a request cancels a held press without activating")
  func requestCancelsPress() throws {
    var state = try FocusState(layout: layout())
    reduce(&state, .selectDown)
    reduce(&state, .requestFocus(.item("m1")))
    #expect(state.pressed == nil)
    #expect(reduce(&state, .selectUp) == [])
  }
}

@Suite("Selection follows focus; unavailable items stay out")
struct SelectionFollowsFocusTests {
  /// A tab bar t0 t1 t2 with selectionFollowsFocus, and "above" over it.
  func tabBar() -> Layout {
    Layout(
      items: [
        item("above", 0, 0, 100, 100), item("t0", 0, 200, 100, 50), item("t1", 200, 200, 100, 50),
        item("t2", 400, 200, 100, 50, available: false), item("t3", 600, 200, 100, 50),
      ],
      groups: [Group(id: "bar", items: ["t0", "t1", "t2", "t3"], selectionFollowsFocus: true)],
      initialFocus: "above")
  }

  @Test("focusing an item selects it and deselects the others in the group")
  func follows() throws {
    var state = try FocusState(layout: tabBar())
    #expect(
      reduce(&state, .move(.down)) == moved("above", "t0", .down) + [
        .selectionChanged(id: "t0", selected: true)
      ])
    #expect(
      reduce(&state, .move(.right)) == moved("t0", "t1", .right) + [
        .selectionChanged(id: "t0", selected: false), .selectionChanged(id: "t1", selected: true),
      ])
    // t2 is unavailable: skipped, never selected.
    #expect(
      reduce(&state, .move(.right)) == moved("t1", "t3", .right) + [
        .selectionChanged(id: "t1", selected: false), .selectionChanged(id: "t3", selected: true),
      ])
    #expect(state.selected == ["t3"])
    // Leaving the group keeps its selection.
    #expect(
      reduce(&state, .requestFocus(.item("above"))) == [
        .focusChanged(FocusUpdateContext(previous: "t3", next: "above", heading: .programmatic))
      ])
    #expect(state.displayState(of: "t3") == .selected)
    #expect(state.displayState(of: "t2") == .unavailable)
  }

  @Test("without the option, focus does not select")
  func withoutOption() throws {
    var layout = tabBar()
    layout.groups[0].selectionFollowsFocus = false
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.down)) == moved("above", "t0", .down))
    #expect(state.selected.isEmpty)
  }

  @Test("an item that becomes unavailable while pressed is neither activated nor toggled")
  func unavailableWhilePressed() throws {
    var state = try FocusState(layout: grid(rows: 1, columns: 2))
    reduce(&state, .selectDown)
    reduce(&state, .applyPatch(LayoutPatch([.setItemAvailable("r0c0", false)])))
    #expect(state.focused == "r0c1")
    #expect(reduce(&state, .selectUp) == [])
    #expect(state.selected.isEmpty)
    #expect(state.displayState(of: "r0c0") == .unavailable)
  }

  @Test("a selected item that becomes unavailable shows as unavailable")
  func selectedButUnavailable() throws {
    var layout = grid(rows: 1, columns: 2)
    layout.items[1].selected = true
    layout.items[1].available = false
    let state = try FocusState(layout: layout)
    #expect(state.displayStates() == ["r0c0": .focused, "r0c1": .unavailable])
  }
}

@Suite("Scrolling groups")
struct ScrollTests {
  /// A row of ten 300-wide cells, 40 apart, in a 1000-wide viewport (margin 40), and an item
  /// "below" under the viewport's right part. Transposed for a vertical scroll.
  func row(_ axis: ScrollAxis) -> Layout {
    var items = (0..<10).map { item("c\($0)", Double($0) * 340, 0, 300, 200) }
    items.append(item("below", 700, 400, 300, 100))
    var layout = Layout(
      items: items,
      groups: [
        Group(
          id: "row", items: (0..<10).map { "c\($0)" }, scroll: .horizontal,
          viewport: Rect(x: 0, y: 0, width: 1000, height: 200))
      ],
      initialFocus: "c0")
    if axis == .vertical {
      layout = rotated(layout, to: .down)
      layout.groups[0].scroll = .vertical
      layout.groups[0].viewport = Rect(x: 0, y: 0, width: 200, height: 1000)
    }
    return layout
  }

  func point(_ value: Double, _ axis: ScrollAxis) -> Point {
    axis == .vertical ? Point(x: 0, y: value) : Point(x: value, y: 0)
  }

  @Test(
    "moving along the row scrolls to keep focus inside the margin, clamped to the content",
    arguments: [ScrollAxis.horizontal, .vertical])
  func scrollsAlong(axis: ScrollAxis) throws {
    let forward: Direction = axis == .vertical ? .down : .right
    let back: Direction = axis == .vertical ? .up : .left
    var state = try FocusState(layout: row(axis))
    #expect(state.scrollOffsets == [:])
    // c1 fits; c2 ends at 980 > 1000 - 40: scroll 20; then each cell's far edge at 960, until
    // the content's end (3360 - 1000 = 2360) clamps the last.
    let offsets: [Double?] = [nil, 20, 360, 700, 1040, 1380, 1720, 2060, 2360]
    for (step, offset) in offsets.enumerated() {
      var expected = moved("c\(step)", "c\(step + 1)", forward)
      if let offset { expected.append(.scrolled(group: "row", offset: point(offset, axis))) }
      #expect(reduce(&state, .move(forward)) == expected, "step \(step)")
      #expect(state.scrollOffsets["row"] == offset.map { point($0, axis) })
    }
    #expect(reduce(&state, .move(forward)) == [.movementFailed(FocusHeading(forward))])
    let last = try #require(state.presentedFrame(of: "c9"))
    #expect((axis == .vertical ? last.maxY : last.maxX) == 1000)
    for _ in 0..<9 { reduce(&state, .move(back)) }
    #expect(state.focused == "c0")
    #expect(state.scrollOffsets == ["row": .zero])
  }

  @Test("the focused item stays inside the viewport with the margin, unless content ends")
  func margin() throws {
    var state = try FocusState(layout: row(.horizontal))
    for _ in 0..<9 {
      reduce(&state, .move(.right))
      let frame = try #require(state.focused.flatMap { state.presentedFrame(of: $0) })
      #expect(frame.minX >= 40)
      #expect(frame.maxX <= 960 || state.focused == "c9")
      #expect(frame.maxX <= 1000)
    }
  }

  @Test("the search uses presented (scrolled) frames")
  func searchUsesPresentedFrames() throws {
    var state = try FocusState(layout: row(.horizontal))
    for _ in 0..<3 { reduce(&state, .move(.right)) }
    #expect(state.focused == "c3")
    #expect(state.presentedFrame(of: "c3") == Rect(x: 660, y: 0, width: 300, height: 200))
    #expect(reduce(&state, .move(.down)) == moved("c3", "below", .down))
    // Unscrolled, c2 (680…980) would be above "below"; scrolled by 360, c3 (660…960) is.
    #expect(reduce(&state, .move(.up)) == moved("below", "c3", .up))
  }

  @Test("a guide in a scrolling group moves with its content")
  func guideScrolls() throws {
    var layout = row(.horizontal)
    layout.guides = [
      FocusGuide(
        id: "back", frame: Rect(x: 1020, y: 250, width: 300, height: 50), destinations: ["c0"],
        group: "row")
    ]
    var state = try FocusState(layout: layout)
    for _ in 0..<3 { reduce(&state, .move(.right)) }
    // Down from c3 meets the guide first (it lies between c3 and "below").
    #expect(state.destination(from: "c3", .down) == "c0")
    reduce(&state, .requestFocus(.item("below")))
    #expect(state.scrollOffsets == ["row": Point(x: 360, y: 0)])
    // Scrolled by 360, the guide sits at 660…960, in the beam of "below" and nearer than c3.
    #expect(
      reduce(&state, .move(.up)) == moved("below", "c0", .up) + [
        .scrolled(group: "row", offset: .zero)
      ])
  }

  @Test("a request for an off-viewport item scrolls it in")
  func requestScrolls() throws {
    var state = try FocusState(layout: row(.horizontal))
    #expect(
      reduce(&state, .requestFocus(.item("c9"))) == [
        .focusChanged(FocusUpdateContext(previous: "c0", next: "c9", heading: .programmatic)),
        .scrolled(group: "row", offset: Point(x: 2360, y: 0)),
      ])
  }

  /// An EPG: a vertically scrolling page (viewport 1000×500) of six horizontally scrolling
  /// rows (viewports 1000×200 in the page's content space) of ten 300×200 cells.
  func epg(page axis: ScrollAxis = .vertical) -> Layout {
    var items: [Item] = []
    var rows: [Group] = []
    for row in 0..<6 {
      let ids = (0..<10).map { "r\(row)c\($0)" }
      for (column, id) in ids.enumerated() {
        items.append(item(id, Double(column) * 340, Double(row) * 240, 300, 200))
      }
      rows.append(
        Group(
          id: "row\(row)", items: ids, scroll: .horizontal,
          viewport: Rect(x: 0, y: Double(row) * 240, width: 1000, height: 200)))
    }
    return Layout(
      items: items,
      groups: [
        Group(
          id: "page", groups: rows, scroll: axis,
          viewport: Rect(x: 0, y: 0, width: 1000, height: 500))
      ],
      initialFocus: "r0c0")
  }

  @Test(
    "nested scroll groups: the page scrolls vertically, each row horizontally",
    arguments: [ScrollAxis.vertical, .both])
  func nestedScrolling(page: ScrollAxis) throws {
    // A page that may also scroll sideways must not: its rows keep the focus in view.
    var state = try FocusState(layout: epg(page: page))
    #expect(reduce(&state, .move(.down)) == moved("r0c0", "r1c0", .down))
    #expect(
      reduce(&state, .move(.down)) == moved("r1c0", "r2c0", .down) + [
        .scrolled(group: "page", offset: Point(x: 0, y: 220))
      ])
    for _ in 0..<2 { reduce(&state, .move(.right)) }
    #expect(
      reduce(&state, .move(.right)) == moved("r2c2", "r2c3", .right) + [
        .scrolled(group: "row2", offset: Point(x: 360, y: 0))
      ])
    #expect(state.presentedFrame(of: "r2c3") == Rect(x: 660, y: 260, width: 300, height: 200))
    // Row 3 is unscrolled: of its cells, only c2 (680…980) lies in r2c3's beam (660…960).
    #expect(
      reduce(&state, .move(.down)) == moved("r2c3", "r3c2", .down) + [
        .scrolled(group: "page", offset: Point(x: 0, y: 460)),
        .scrolled(group: "row3", offset: Point(x: 20, y: 0)),
      ])
    #expect(state.presentedFrame(of: "r3c2") == Rect(x: 660, y: 260, width: 300, height: 200))
    #expect(
      state.scrollOffsets == [
        "page": Point(x: 0, y: 460), "row2": Point(x: 360, y: 0), "row3": Point(x: 20, y: 0),
      ])
    // Up goes back to the scrolled row 2: r2c3 is where the eye sees it, above r3c2.
    #expect(
      reduce(&state, .move(.up)) == moved("r3c2", "r2c3", .up) + [
        .scrolled(group: "page", offset: Point(x: 0, y: 440))
      ])
  }

  @Test("a scrolling group inside another on the same axis: both scroll to show the item")
  func nestedSameAxis() throws {
    // A page (viewport 0…500 tall) holds "top" and a list whose viewport (600…900, in the
    // page's content space) starts below the page's viewport.
    let list = (0..<6).map { item("L\($0)", 0, 600 + Double($0) * 240, 300, 200) }
    let layout = Layout(
      items: [item("top", 0, 0, 300, 200)] + list,
      groups: [
        Group(
          id: "page", items: ["top"],
          groups: [
            Group(
              id: "list", items: list.map(\.id), scroll: .vertical,
              viewport: Rect(x: 0, y: 600, width: 1000, height: 300))
          ],
          scroll: .vertical, viewport: Rect(x: 0, y: 0, width: 1000, height: 500))
      ])
    var state = try FocusState(layout: layout)
    // The list scrolls L3 (1320…1520) to 660…860, 40 above its viewport's bottom; the page
    // then scrolls that to 260…460, 40 above its own bottom.
    #expect(
      reduce(&state, .requestFocus(.item("L3"))) == [
        .focusChanged(FocusUpdateContext(previous: "top", next: "L3", heading: .programmatic)),
        .scrolled(group: "page", offset: Point(x: 0, y: 400)),
        .scrolled(group: "list", offset: Point(x: 0, y: 660)),
      ])
    #expect(state.presentedFrame(of: "L3") == Rect(x: 0, y: 260, width: 300, height: 200))
  }

  @Test("scroll offsets survive a replacement that keeps the group")
  func offsetsSurvive() throws {
    var state = try FocusState(layout: row(.horizontal))
    for _ in 0..<3 { reduce(&state, .move(.right)) }
    #expect(reduce(&state, .replaceLayout(row(.horizontal))) == [])
    #expect(state.scrollOffsets == ["row": Point(x: 360, y: 0)])
  }
}

@Suite("Focus debugger")
struct FocusDebuggerTests {
  @Test("explain: an unknown id")
  func unknown() throws {
    let state = try FocusState(layout: grid())
    #expect(
      state.explain("nope")
        == .init(id: "nope", canFocus: false, lines: [#"no item "nope" in this layout"#]))
  }

  @Test("explain: unavailable, and inside a disabled group")
  func unfocusable() throws {
    var layout = grid(unavailable: ["r0c1"])
    layout.groups = [Group(id: "g", items: ["r2c2"], enabled: false)]
    let state = try FocusState(layout: layout)
    let unavailable = state.explain("r0c1")
    #expect(!unavailable.canFocus)
    #expect(unavailable.lines.first == #"r0c1 cannot take focus: item "r0c1" is unavailable"#)
    let disabled = state.explain("r2c2")
    #expect(!disabled.canFocus)
    #expect(disabled.lines.first == #"r2c2 cannot take focus: group "g" around "r2c2" is disabled"#)
  }

  @Test("explain: outside the trapping group")
  func trapped() throws {
    var layout = grid()
    layout.groups = [Group(id: "modal", items: ["r0c0", "r0c1"], trapsFocus: true)]
    let state = try FocusState(layout: layout)
    let explanation = state.explain("r2c2")
    #expect(!explanation.canFocus)
    #expect(
      explanation.lines.first == #"r2c2 cannot take focus now: focus is trapped in group "modal""#)
  }

  @Test("explain: a reachable item names the arrow path; an unreachable one says so")
  func paths() throws {
    let state = try FocusState(layout: grid())
    let explanation = state.explain("r1c1")
    #expect(explanation.canFocus)
    #expect(explanation.lines.contains("r1c1 can take focus"))
    #expect(explanation.lines.contains("reachable from r0c0 with arrows: down, right"))
    #expect(state.explain("r0c0").lines.first == "r0c0 has focus")

    let diagonal = try FocusState(
      layout: Layout(items: [item("a", 0, 0, 100, 100), item("b", 200, 200, 100, 100)]))
    #expect(
      diagonal.explain("b").lines.contains(
        "not reachable from a with arrows; use Tab or a focus request"))
  }

  @Test("the group tree lists groups by depth with options and primary items")
  func groupTree() throws {
    var layout = grid()
    layout.groups = [
      Group(
        id: "outer", items: ["r0c0"],
        groups: [Group(id: "inner", items: ["r0c1", "r0c2"], remembersLastFocused: true)],
        trapsFocus: true, preferredFocus: "inner"),
      Group(id: "off", items: ["r2c0"], enabled: false),
    ]
    let state = try FocusState(layout: layout)
    #expect(
      state.groupTree() == [
        "(top level): 5 item(s)",
        "outer: 1 item(s), primary r0c0 [traps focus, prefers inner]",
        "  inner: 2 item(s), primary r0c1 [remembers last focused]",
        "off: 1 item(s), primary none [disabled]",
      ])
  }

  @Test("dryRun reports what events would do and leaves the state alone")
  func dryRun() throws {
    let state = try FocusState(layout: grid())
    let copy = state
    let (after, effects) = state.dryRun([.move(.right), .move(.down), .selectDown, .selectUp])
    #expect(state == copy)
    #expect(after.focused == "r1c1")
    #expect(after.selected == ["r1c1"])
    #expect(
      effects
        == moved("r0c0", "r0c1", .right) + moved("r0c1", "r1c1", .down) + [
          .highlighted("r1c1"), .activated("r1c1"), .selectionChanged(id: "r1c1", selected: true),
        ])
  }
}
