import Foundation
import Testing

@testable import FocusEngine

/// Decodes the JSON layout format.
private enum LayoutJSON {
  static func decode(_ json: String) throws -> Layout {
    try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
  }
}

/// A poster: a momentary button (no selected/not selected value).
private func poster(
  _ id: String, _ title: String, x: Double, y: Double, available: Bool = true,
  hint: String? = nil
) -> Item {
  Item(
    id: id, title: title, frame: Rect(x: x, y: y, width: 100, height: 100),
    available: available, toggles: false, accessibility: ItemAccessibility(hint: hint))
}

/// A menu (m0, m1, unlabelled) above a "Home" group holding two rows: "Trending" (labelled,
/// a1 unavailable) and a row named by its heading item "Classics".
private func catalog(verbosity: Verbosity = .normal) -> Layout {
  Layout(
    items: [
      poster("m0", "Movies", x: 0, y: 0), poster("m1", "Shows", x: 150, y: 0),
      poster("a0", "Orbit", x: 0, y: 200, hint: "Opens its details"),
      poster("a1", "Locked", x: 150, y: 200, available: false),
      poster("a2", "Red Canyon", x: 300, y: 200), poster("a3", "Quiet Hours", x: 450, y: 200),
      poster("a4", "Signal", x: 600, y: 200),
      Item(
        id: "hb", title: "Classics", frame: Rect(x: 0, y: 360, width: 700, height: 30),
        kind: .label),
      poster("b0", "Old Roads", x: 0, y: 400), poster("b1", "Silver Screen", x: 150, y: 400),
      poster("b2", "Golden Hour", x: 300, y: 400),
    ],
    groups: [
      Group(id: "menu", items: ["m0", "m1"]),
      Group(
        id: "home",
        groups: [
          Group(
            id: "row-a", items: ["a0", "a1", "a2", "a3", "a4"], accessibilityLabel: "Trending"),
          Group(id: "row-b", items: ["hb", "b0", "b1", "b2"]),
        ], accessibilityLabel: "Home"),
    ],
    initialFocus: "a0", verbosity: verbosity)
}

/// Runs `event` and returns what the announcer says about it at `time` (nanoseconds).
private func say(
  _ state: inout FocusState, _ announcer: inout Announcer, _ event: FocusEvent, at time: UInt64 = 0
) -> Announcement? {
  let before = state
  let effects = reduce(&state, event)
  return announcer.announce(effects, before: before, after: state, at: time)
}

@Suite("Announcements: what a screen reader says")
struct AnnouncementTests {
  @Test("the first focus says the whole path: every labelled group, label, traits, position")
  func initialFocus() throws {
    let state = try FocusState(layout: catalog())
    let announcement = try #require(Announcer().announceFocus(in: state))
    #expect(announcement.text == "Home, Trending, Orbit, button, 1 of 4")
    #expect(announcement.interrupt)
    #expect(
      announcement.parts == [
        AnnouncementPart(.group, "Home"), AnnouncementPart(.group, "Trending"),
        AnnouncementPart(.label, "Orbit"), AnnouncementPart(.trait, "button"),
        AnnouncementPart(.position, "1 of 4"),
      ])
  }

  @Test("a move inside a group says only the item: no group, unavailable items not counted")
  func moveInsideGroup() throws {
    var state = try FocusState(layout: catalog())
    var announcer = Announcer()
    let rightSaid = say(&state, &announcer, .move(.right))
    let right = try #require(rightSaid)
    #expect(right.text == "Red Canyon, button, 2 of 4")
    #expect(right.interrupt)
    let againSaid = say(&state, &announcer, .move(.right))
    let again = try #require(againSaid)
    #expect(again.text == "Quiet Hours, button, 3 of 4")
  }

  @Test(
    "entering another group says its label (a heading item's title by default), not the shared outer group"
  )
  func enterGroup() throws {
    var state = try FocusState(layout: catalog())
    var announcer = Announcer()
    let downSaid = say(&state, &announcer, .move(.down))
    let down = try #require(downSaid)
    #expect(down.text == "Classics, Old Roads, button, 1 of 3")
    #expect(down.parts.first == AnnouncementPart(.group, "Classics"))
    let upSaid = say(&state, &announcer, .move(.up))
    let up = try #require(upSaid)
    #expect(up.text == "Trending, Orbit, button, 1 of 4")
    // Leaving "Home" for the unlabelled menu says no group; coming back says "Home" again.
    let menuSaid = say(&state, &announcer, .move(.up))
    let menu = try #require(menuSaid)
    #expect(menu.text == "Movies, button, 1 of 2")
    let backSaid = say(&state, &announcer, .move(.down))
    let back = try #require(backSaid)
    #expect(back.text == "Home, Trending, Orbit, button, 1 of 4")
  }

  @Test(
    "verbosity: low says groups, label and value; normal adds traits and position; high the hint after a pause",
    arguments: [
      (Verbosity.low, "Home, Trending, Orbit"),
      (.normal, "Home, Trending, Orbit, button, 1 of 4"),
      (.high, "Home, Trending, Orbit, button, 1 of 4. Opens its details"),
    ])
  func verbosity(level: Verbosity, expected: String) throws {
    let state = try FocusState(layout: catalog(verbosity: level))
    let announcement = try #require(Announcer().announceFocus(in: state))
    #expect(announcement.text == expected)
    #expect(announcement.parts.contains { $0.kind == .hint } == (level == .high))
  }

  @Test(
    "content: low says no badge or subtitle; normal the badge after the label; high the subtitle, then the badge, then the hint",
    arguments: [
      (Verbosity.low, "Home, Trending, Orbit"),
      (.normal, "Home, Trending, Orbit, New, button, 1 of 4"),
      (.high, "Home, Trending, Orbit, 2031 · Space drama, New, button, 1 of 4. Opens its details"),
    ])
  func content(level: Verbosity, expected: String) throws {
    var layout = catalog(verbosity: level)
    layout.items[2].content = ItemContent(
      subtitle: "2031 · Space drama", body: "Never said.", badge: "New",
      image: "posters/orbit.png", accent: "#ff8800")
    let state = try FocusState(layout: layout)
    let announcement = try #require(Announcer().announceFocus(in: state))
    #expect(announcement.text == expected)
    let label = try #require(announcement.parts.firstIndex { $0.kind == .label })
    let values = announcement.parts.dropFirst(label + 1).prefix { $0.kind == .value }.map(\.text)
    switch level {
    case .low: #expect(values.isEmpty)
    case .normal: #expect(values == ["New"])
    case .high: #expect(values == ["2031 · Space drama", "New"])
    }
    // A move onto it says the same content.
    var moving = try FocusState(layout: layout)
    var announcer = Announcer()
    _ = say(&moving, &announcer, .move(.right))
    let backSaid = say(&moving, &announcer, .move(.left))
    let back = try #require(backSaid)
    #expect(back.text.contains("New") == (level != .low))
    #expect(back.text.contains("Space drama") == (level == .high))
  }

  @Test(
    "positions: in the item's own group, skipping unavailable items, headings and nested groups")
  func positions() throws {
    let layout = Layout(
      items: [
        poster("x1", "One", x: 0, y: 0), poster("x2", "Two", x: 150, y: 0, available: false),
        Item(
          id: "h", title: "Head", frame: Rect(x: 0, y: -50, width: 300, height: 30),
          kind: .label),
        poster("x3", "Three", x: 300, y: 0), poster("n1", "Inner one", x: 0, y: 200),
        poster("n2", "Inner two", x: 150, y: 200), poster("r1", "Loose", x: 0, y: 400),
        poster("r2", "Loose too", x: 150, y: 400),
      ],
      groups: [
        Group(
          id: "g", items: ["x1", "x2", "h", "x3"], groups: [Group(id: "n", items: ["n1", "n2"])])
      ])
    let state = try FocusState(layout: layout)
    #expect(state.accessibilityPosition(ofItem: "x1")! == (1, 2))
    #expect(state.accessibilityPosition(ofItem: "x3")! == (2, 2))
    #expect(state.accessibilityPosition(ofItem: "n2")! == (2, 2))
    #expect(state.accessibilityPosition(ofItem: "r2")! == (2, 2))
    #expect(state.accessibilityPosition(ofItem: "x2") == nil)
    #expect(state.accessibilityPosition(ofItem: "h") == nil)
    // The nested group has no label of its own; its parent is named by its heading.
    #expect(state.accessibilityLabel(ofGroup: "g") == "Head")
    #expect(state.accessibilityLabel(ofGroup: "n") == nil)
  }

  @Test("group labels: explicit, else the first heading item, and an empty label names nothing")
  func groupLabels() throws {
    var layout = catalog()
    #expect(try FocusState(layout: layout).accessibilityLabel(ofGroup: "row-b") == "Classics")
    layout.groups[1].groups[1].accessibilityLabel = "Old films"
    #expect(try FocusState(layout: layout).accessibilityLabel(ofGroup: "row-b") == "Old films")
    layout.groups[1].groups[1].accessibilityLabel = ""
    var state = try FocusState(layout: layout)
    #expect(state.accessibilityLabel(ofGroup: "row-b") == nil)
    var announcer = Announcer()
    #expect(say(&state, &announcer, .move(.down))?.text == "Old Roads, button, 1 of 3")
  }

  @Test(
    "labels, values and traits: declared ones win; toggles say selected, text fields their text")
  func labelsValuesTraits() throws {
    let layout = Layout(
      items: [
        Item(
          id: "play", title: "▶ Play", frame: Rect(x: 0, y: 0, width: 100, height: 100),
          toggles: false, accessibility: ItemAccessibility(label: "Play")),
        Item(id: "fav", title: "Favourite", frame: Rect(x: 150, y: 0, width: 100, height: 100)),
        Item(
          id: "search", title: "Search…", frame: Rect(x: 300, y: 0, width: 100, height: 100),
          kind: .textField,
          accessibility: ItemAccessibility(label: "Search", traits: [.searchField])),
        Item(
          id: "vol", title: "Volume", frame: Rect(x: 450, y: 0, width: 100, height: 100),
          toggles: false,
          accessibility: ItemAccessibility(value: "40 percent", traits: [.image, .selected])),
      ])
    var state = try FocusState(layout: layout)
    var announcer = Announcer()
    #expect(announcer.announceFocus(in: state)?.text == "Play, button, 1 of 4")
    #expect(
      say(&state, &announcer, .move(.right))?.text == "Favourite, not selected, button, 2 of 4")
    #expect(say(&state, &announcer, .move(.right))?.text == "Search, search field, 3 of 4")
    #expect(say(&state, &announcer, .text(.set("star")))?.text == "star")
    #expect(state.accessibilityValue(ofItem: "search") == "star")
    // Declared state traits are replaced by the item's real state: "vol" is not selected.
    #expect(say(&state, &announcer, .move(.right))?.text == "Volume, 40 percent, image, 4 of 4")
  }

  @Test("activation says activated; a toggle says its new selection instead; neither interrupts")
  func activationAndSelection() throws {
    let layout = Layout(
      items: [
        Item(
          id: "go", title: "Go", frame: Rect(x: 0, y: 0, width: 100, height: 100), toggles: false),
        Item(id: "fav", title: "Favourite", frame: Rect(x: 150, y: 0, width: 100, height: 100)),
      ])
    var state = try FocusState(layout: layout)
    var announcer = Announcer()
    #expect(say(&state, &announcer, .selectDown) == nil)
    let goSaid = say(&state, &announcer, .selectUp)
    let go = try #require(goSaid)
    #expect(go == Announcement(parts: [AnnouncementPart(.action, "activated")], interrupt: false))
    _ = say(&state, &announcer, .move(.right))
    _ = say(&state, &announcer, .selectDown)
    let onSaid = say(&state, &announcer, .selectUp)
    let on = try #require(onSaid)
    #expect(on == Announcement(parts: [AnnouncementPart(.value, "selected")], interrupt: false))
    _ = say(&state, &announcer, .selectDown)
    #expect(say(&state, &announcer, .selectUp)?.text == "not selected")
  }

  @Test("selection that follows focus is said once, as the item's trait")
  func selectionFollowsFocus() throws {
    let layout = Layout(
      items: [
        Item(
          id: "t0", title: "Movies", frame: Rect(x: 0, y: 0, width: 100, height: 50),
          toggles: false, accessibility: ItemAccessibility(traits: [.tab])),
        Item(
          id: "t1", title: "Shows", frame: Rect(x: 150, y: 0, width: 100, height: 50),
          toggles: false, accessibility: ItemAccessibility(traits: [.tab])),
      ],
      groups: [Group(id: "tabs", items: ["t0", "t1"], selectionFollowsFocus: true)])
    var state = try FocusState(layout: layout)
    var announcer = Announcer()
    let movedSaid = say(&state, &announcer, .move(.right))
    let moved = try #require(movedSaid)
    #expect(moved.text == "Shows, tab, selected, 2 of 2")
  }

  @Test("text edits say the new text, or empty, and interrupt")
  func textEdits() throws {
    let layout = Layout(
      items: [
        Item(
          id: "q", title: "Search", frame: Rect(x: 0, y: 0, width: 300, height: 60),
          kind: .textField)
      ])
    var state = try FocusState(layout: layout)
    var announcer = Announcer()
    #expect(announcer.announceFocus(in: state)?.text == "Search, text field")
    let typedSaid = say(&state, &announcer, .text(.append("st")))
    let typed = try #require(typedSaid)
    #expect(typed == Announcement(parts: [AnnouncementPart(.value, "st")], interrupt: true))
    #expect(say(&state, &announcer, .text(.clear))?.text == "empty")
  }

  @Test("the edge bump is a short cue, at most once per interval (time as data)")
  func edgeBump() throws {
    var state = try FocusState(layout: catalog())
    var announcer = Announcer(bumpInterval: 1_000_000_000)
    let firstSaid = say(&state, &announcer, .move(.left), at: 5_000_000_000)
    let first = try #require(firstSaid)
    #expect(first == Announcement(parts: [AnnouncementPart(.edge, "end of row")], interrupt: false))
    #expect(say(&state, &announcer, .move(.left), at: 5_400_000_000) == nil)
    #expect(say(&state, &announcer, .move(.left), at: 5_999_999_999) == nil)
    #expect(say(&state, &announcer, .move(.left), at: 6_000_000_000)?.text == "end of row")
    #expect(announcer.lastBump == 6_000_000_000)
    _ = say(&state, &announcer, .move(.down), at: 6_100_000_000)
    #expect(say(&state, &announcer, .move(.down), at: 9_000_000_000)?.text == "end of column")
  }

  @Test("a move refused by a trapping group says so, every time; inside it, the edge cue")
  func trapped() throws {
    var layout = catalog()
    layout.items += [
      // Below "Quiet Hours" and "Signal": outside the trap, up would find them.
      poster("d0", "Play", x: 450, y: 600), poster("d1", "Favourite", x: 600, y: 600),
    ]
    layout.groups.append(
      Group(id: "detail", items: ["d0", "d1"], trapsFocus: true, accessibilityLabel: "Details"))
    var state = try FocusState(layout: layout)
    var announcer = Announcer()
    let enteredSaid = say(&state, &announcer, .requestFocus(.group("detail")))
    let entered = try #require(enteredSaid)
    #expect(entered.text == "Details, Play, button, 1 of 2")
    let up = AnnouncementPart(.refusal, "trapped in Details")
    #expect(
      say(&state, &announcer, .move(.up), at: 1) == Announcement(parts: [up], interrupt: false))
    #expect(say(&state, &announcer, .move(.up), at: 2)?.parts == [up])
    _ = say(&state, &announcer, .move(.right), at: 3)
    #expect(say(&state, &announcer, .move(.right), at: 4)?.text == "end of row")
  }

  @Test("refused focus requests say why")
  func refusals() throws {
    var layout = catalog()
    layout.items.append(poster("d0", "Play", x: 800, y: 600))
    layout.groups.append(
      Group(id: "detail", items: ["d0"], trapsFocus: true, accessibilityLabel: "Details"))
    var state = try FocusState(layout: layout)
    var announcer = Announcer()
    #expect(say(&state, &announcer, .requestFocus(.item("a1")))?.text == "Locked, unavailable")
    #expect(say(&state, &announcer, .requestFocus(.item("zz")))?.text == "not found")
    _ = say(&state, &announcer, .requestFocus(.item("d0")))
    let trappedSaid = say(&state, &announcer, .requestFocus(.item("a0")))
    let trapped = try #require(trappedSaid)
    #expect(trapped.parts == [AnnouncementPart(.refusal, "trapped in Details")])
    #expect(say(&state, &announcer, .text(.set("x")))?.text == "no text field")
  }

  @Test("several moves in one step are said once, from where focus was to where it ended")
  func severalMoves() throws {
    var state = try FocusState(layout: catalog())
    let before = state
    var effects = reduce(&state, .move(.down))
    effects += reduce(&state, .move(.right))
    effects += reduce(&state, .move(.right))
    effects += reduce(&state, .move(.right))
    var announcer = Announcer()
    let announced = announcer.announce(effects, before: before, after: state, at: 0)
    let said = try #require(announced)
    #expect(said.text == "Classics, Golden Hour, button, 3 of 3, end of row")
  }

  @Test("focus that recovers from a vanished item is described; a layout that keeps it is not")
  func recovery() throws {
    var state = try FocusState(layout: catalog())
    var announcer = Announcer()
    var kept = catalog()
    kept.items[0].title = "Films"
    #expect(say(&state, &announcer, .replaceLayout(kept)) == nil)
    let goneSaid = say(&state, &announcer, .applyPatch(LayoutPatch([.removeItem("a0")])))
    let gone = try #require(goneSaid)
    #expect(gone.text == "Red Canyon, button, 1 of 3")
  }

  @Test("announcement text: commas between parts, a full stop before the hint")
  func text() {
    let announcement = Announcement(
      parts: [
        AnnouncementPart(.label, "Orbit"), AnnouncementPart(.position, "1 of 4"),
        AnnouncementPart(.hint, "Opens its details"),
      ], interrupt: true)
    #expect(announcement.text == "Orbit, 1 of 4. Opens its details")
  }
}

@Suite("Accessibility fields: format and text rules")
struct AccessibilityLayoutTests {
  @Test("the JSON format reads the accessibility fields and the verbosity")
  func decodes() throws {
    let json = """
      {"verbosity": "high", "items": [{"id": "a", "frame": [0, 0, 10, 10], "title": "▶",
        "accessibilityLabel": "Play", "accessibilityHint": "Starts it",
        "accessibilityValue": "paused", "accessibilityTraits": ["button", "image"]}],
       "groups": [{"id": "g", "items": ["a"], "accessibilityLabel": "Player"}]}
      """
    let layout = try LayoutJSON.decode(json)
    #expect(layout.verbosity == .high)
    #expect(
      layout.items[0].accessibility
        == ItemAccessibility(
          label: "Play", hint: "Starts it", value: "paused", traits: [.button, .image]))
    #expect(layout.groups[0].accessibilityLabel == "Player")
    #expect(throws: (any Error).self) {
      try LayoutJSON.decode(
        #"{"items": [{"id": "a", "frame": [0, 0, 1, 1], "accessibilityTraits": ["loud"]}]}"#)
    }
    #expect(throws: (any Error).self) {
      try LayoutJSON.decode(#"{"verbosity": "chatty", "items": []}"#)
    }
  }

  @Test(
    "new free-text fields follow the title rules: no control characters, no unpaired bidi controls, bounded",
    arguments: [
      ("label", "items[0].accessibilityLabel"), ("hint", "items[0].accessibilityHint"),
      ("value", "items[0].accessibilityValue"), ("group", "groups[0].accessibilityLabel"),
    ])
  func textRules(field: String, path: String) throws {
    for bad in ["Play\u{1B}[2J", "\u{202E}evil", "a\u{2028}b", String(repeating: "x", count: 4097)]
    {
      var item = Item(id: "a", frame: Rect(x: 0, y: 0, width: 1, height: 1))
      var group = Group(id: "g", items: ["a"])
      switch field {
      case "label": item.accessibility.label = bad
      case "hint": item.accessibility.hint = bad
      case "value": item.accessibility.value = bad
      default: group.accessibilityLabel = bad
      }
      let layout = Layout(items: [item], groups: [group])
      #expect(throws: LayoutError.self) { try layout.validate() }
      do {
        try layout.validate()
      } catch {
        #expect(error.path == path)
      }
    }
    var fine = Item(id: "a", frame: Rect(x: 0, y: 0, width: 1, height: 1))
    fine.accessibility = ItemAccessibility(label: "\u{2067}שלום\u{2069} Play", hint: "ok")
    try Layout(items: [fine]).validate()
  }
}
