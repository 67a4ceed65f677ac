import Testing

@testable import FocusEngine

@Suite("Focus guides")
struct GuideTests {
  /// "src" on the left; "target" down and to the right, outside src's beam; a guide in the gap
  /// to src's right.
  func bridge(_ destinations: [String], enabled: Bool = true, extraItems: [Item] = [])
    -> Layout
  {
    Layout(
      items: [item("src", 0, 0, 100, 100), item("target", 500, 300, 100, 100)] + extraItems,
      initialFocus: "src",
      guides: [
        FocusGuide(
          id: "guide", frame: Rect(x: 200, y: 0, width: 100, height: 100),
          destinations: destinations, enabled: enabled)
      ])
  }

  @Test("a guide bridges a gap to an item", arguments: directionsAndModels)
  func bridgesToItem(direction: Direction, model: SearchModel) throws {
    let (state, effects) = try moveOnce(bridge(["target"]), direction, search: model)
    #expect(effects == moved("src", "target", direction))
    #expect(state.focused == "target")
  }

  @Test("without the guide, tvOS has nothing that way", arguments: Direction.allCases)
  func noGuideNoMove(direction: Direction) throws {
    var layout = bridge(["target"])
    layout.guides = []
    let (_, effects) = try moveOnce(layout, direction, search: .tvos)
    #expect(effects == [.movementFailed(FocusHeading(direction))])
  }

  @Test("a disabled guide is ignored", arguments: Direction.allCases)
  func disabledGuide(direction: Direction) throws {
    let (_, effects) = try moveOnce(bridge(["target"], enabled: false), direction, search: .tvos)
    #expect(effects == [.movementFailed(FocusHeading(direction))])
  }

  @Test("a guide to a group focuses the group's primary item")
  func bridgesToGroup() throws {
    var layout = bridge(["shelf"], extraItems: [item("other", 700, 300, 100, 100)])
    layout.groups = [Group(id: "shelf", items: ["target", "other"], preferredFocus: "other")]
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == moved("src", "other", .right))

    layout.items[1].priority = .prioritized
    var prioritized = try FocusState(layout: layout)
    #expect(reduce(&prioritized, .move(.right)) == moved("src", "target", .right))
  }

  @Test("guide → guide chains resolve to the last guide's destination")
  func chain() throws {
    var layout = bridge(["second"])
    layout.guides.append(
      FocusGuide(
        id: "second", frame: Rect(x: -1000, y: -1000, width: 10, height: 10),
        destinations: ["target"]))
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == moved("src", "target", .right))
  }

  @Test("a disabled guide in a chain is skipped; the next destination is tried")
  func chainDisabledLink() throws {
    var layout = bridge(["second", "fallback"], extraItems: [item("fallback", 0, 500, 100, 100)])
    layout.guides.append(
      FocusGuide(
        id: "second", frame: Rect(x: -1000, y: -1000, width: 10, height: 10),
        destinations: ["target"], enabled: false))
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == moved("src", "fallback", .right))
  }

  @Test(
    "a guide with nothing focusable behind it is searched past", arguments: directionsAndModels)
  func searchedPast(direction: Direction, model: SearchModel) throws {
    var layout = bridge(["target"], extraItems: [item("beyond", 600, 0, 100, 100)])
    layout.items[1].available = false
    let (_, effects) = try moveOnce(layout, direction, search: model)
    #expect(effects == moved("src", "beyond", direction))
  }

  @Test("a guide that leads back to the source is searched past")
  func leadsToSource() throws {
    let layout = bridge(["src"], extraItems: [item("beyond", 600, 0, 100, 100)])
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == moved("src", "beyond", .right))
  }

  @Test("a nearer item in the beam beats a farther guide")
  func nearerItemBeatsGuide() throws {
    let layout = bridge(["target"], extraItems: [item("near", 120, 0, 50, 100)])
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == moved("src", "near", .right))
  }

  @Test("enabling and disabling a guide by patch")
  func patchToggle() throws {
    var state = try FocusState(layout: bridge(["target"], enabled: false))
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
    #expect(reduce(&state, .applyPatch(LayoutPatch([.setGuideEnabled("guide", true)]))) == [])
    #expect(state.layout.guides[0].enabled)
    #expect(reduce(&state, .move(.right)) == moved("src", "target", .right))
  }

  @Test("a guide outside a trapping group is not a way out")
  func guideAndTrap() throws {
    var layout = bridge(["target"])
    layout.groups = [Group(id: "modal", items: ["src"], trapsFocus: true)]
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
  }
}

@Suite("Named inputs")
struct FocusInputTests {
  @Test(
    "names, aliases and the events they send",
    arguments: [
      ("up", [FocusEvent.move(.up)]), ("DOWN", [.move(.down)]), ("left", [.move(.left)]),
      ("right", [.move(.right)]), ("tab", [.tab(.next)]), ("shift-tab", [.tab(.previous)]),
      ("Shift_Tab", [.tab(.previous)]), ("shifttab", [.tab(.previous)]),
      ("backtab", [.tab(.previous)]), ("select", [.selectDown, .selectUp]),
    ])
  func named(name: String, events: [FocusEvent]) throws {
    let input = try #require(FocusInput(name))
    #expect(input.events == events)
  }

  @Test("unknown names are refused", arguments: ["", "jump", "shift tab", "up "])
  func unknown(name: String) {
    #expect(FocusInput(name) == nil)
  }
}

@Suite("Focus guides inside groups")
struct GroupedGuideTests {
  @Test("a guide that belongs to a trapping group works inside it")
  func guideInsideTrap() throws {
    let layout = Layout(
      items: [item("m1", 0, 0, 100, 100), item("m2", 500, 300, 100, 100)],
      groups: [Group(id: "modal", items: ["m1", "m2"], trapsFocus: true)], initialFocus: "m1",
      guides: [
        FocusGuide(
          id: "gd", frame: Rect(x: 200, y: 0, width: 100, height: 100), destinations: ["m2"],
          group: "modal")
      ])
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == moved("m1", "m2", .right))
  }
}
