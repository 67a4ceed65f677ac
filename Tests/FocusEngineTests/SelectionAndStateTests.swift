import Foundation
import Testing

@testable import FocusEngine

@Suite("Selection and the five display states")
struct SelectionAndStateTests {
  @Test("select down highlights the focused item; up activates it and flips selected")
  func pressAndRelease() throws {
    var state = try FocusState(layout: grid())
    #expect(reduce(&state, .selectDown) == [.highlighted("r0c0")])
    #expect(state.displayState(of: "r0c0") == .highlighted)
    #expect(
      reduce(&state, .selectUp) == [
        .activated("r0c0"), .selectionChanged(id: "r0c0", selected: true),
      ])
    #expect(state.displayState(of: "r0c0") == .focused)
    reduce(&state, .move(.right))
    #expect(state.displayState(of: "r0c0") == .selected)
    reduce(&state, .move(.left))
    reduce(&state, .selectDown)
    #expect(
      reduce(&state, .selectUp) == [
        .activated("r0c0"), .selectionChanged(id: "r0c0", selected: false),
      ])
    reduce(&state, .move(.right))
    #expect(state.displayState(of: "r0c0") == .unfocused)
  }

  @Test("a non-toggle item is activated without changing its selected flag")
  func momentary() throws {
    var layout = grid(rows: 1, columns: 2)
    layout.items[0].toggles = false
    var state = try FocusState(layout: layout)
    reduce(&state, .selectDown)
    #expect(reduce(&state, .selectUp) == [.activated("r0c0")])
    #expect(state.selected.isEmpty)
  }

  @Test("select up without a press, and a second select down, do nothing")
  func unpairedPhases() throws {
    var state = try FocusState(layout: grid())
    #expect(reduce(&state, .selectUp) == [])
    reduce(&state, .selectDown)
    #expect(reduce(&state, .selectDown) == [])
  }

  @Test("moving while select is held cancels the press without activating")
  func moveCancelsPress() throws {
    var state = try FocusState(layout: grid())
    reduce(&state, .selectDown)
    reduce(&state, .move(.right))
    #expect(state.pressed == nil)
    #expect(state.displayState(of: "r0c1") == .focused)
    #expect(reduce(&state, .selectUp) == [])
    #expect(state.selected.isEmpty)
  }

  @Test("a bump while select is held keeps the press")
  func bumpKeepsPress() throws {
    var state = try FocusState(layout: grid())
    reduce(&state, .selectDown)
    reduce(&state, .move(.up))
    #expect(state.displayState(of: "r0c0") == .highlighted)
  }

  @Test("all five states at once, and unknown ids have none")
  func fiveStates() throws {
    var layout = grid(rows: 1, columns: 4, unavailable: ["r0c3"])
    layout.items[2].selected = true
    var state = try FocusState(layout: layout)
    #expect(
      state.displayStates() == [
        "r0c0": .focused, "r0c1": .unfocused, "r0c2": .selected, "r0c3": .unavailable,
      ])
    let before = Set(state.displayStates().values)
    reduce(&state, .selectDown)
    #expect(state.displayState(of: "r0c0") == .highlighted)
    #expect(state.displayState(of: "missing") == nil)
    #expect(before.union(state.displayStates().values) == Set(FocusDisplayState.allCases))
  }

  @Test("the 3×3 acceptance script: right, right, down, select, left")
  func acceptanceScript() throws {
    var state = try FocusState(layout: grid(initialFocus: "r0c0"))
    for event: FocusEvent in [.move(.right), .move(.right), .move(.down), .selectDown, .selectUp] {
      reduce(&state, event)
    }
    reduce(&state, .move(.left))
    #expect(state.focused == "r1c1")
    #expect(state.displayState(of: "r1c2") == .selected)
    reduce(&state, .move(.right))
    #expect(state.focused == "r1c2")
    #expect(state.displayState(of: "r1c2") == .focused)
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
    #expect(state.focused == "r1c2")
  }
}

@Suite("Layout replacement and focus recovery")
struct LayoutReplacementTests {
  @Test("focus stays on an id that is still there, and selections of kept ids survive")
  func keepsFocus() throws {
    var state = try FocusState(layout: grid(initialFocus: "r1c1"))
    reduce(&state, .selectDown)
    reduce(&state, .selectUp)
    let moved = grid(rows: 2, columns: 2)
    #expect(reduce(&state, .replaceLayout(moved)) == [])
    #expect(state.focused == "r1c1")
    #expect(state.selected == ["r1c1"])
    #expect(state.layout == moved)
  }

  @Test("after a directional move, a vanished focused item's nearest neighbour takes focus")
  func recoversToNearest() throws {
    var state = try FocusState(layout: grid(initialFocus: "r1c0"))
    reduce(&state, .move(.right))
    var smaller = grid()
    smaller.items.removeAll { $0.id == "r1c1" }
    let effects = reduce(&state, .replaceLayout(smaller))
    // r0c1 and r1c0 etc. are all 40 points away; r0c1 is vertically 40 away, r1c0 horizontally
    // 40 away: equal gaps, the nearer centre (r0c1: 240 vs r1c0: 340) wins.
    #expect(state.focused == "r0c1")
    #expect(
      effects == [
        .focusChanged(FocusUpdateContext(previous: "r1c1", next: "r0c1", heading: .recovery))
      ])
  }

  @Test("when the focused item becomes unavailable, focus recovers and the press is dropped")
  func unavailableRecovers() throws {
    var state = try FocusState(layout: grid(rows: 1, columns: 3, initialFocus: "r0c1"))
    reduce(&state, .selectDown)
    reduce(&state, .replaceLayout(grid(rows: 1, columns: 3, unavailable: ["r0c1"])))
    #expect(state.focused == "r0c0")
    #expect(state.pressed == nil)
    #expect(state.displayState(of: "r0c1") == .unavailable)
  }

  @Test("when nothing is focusable any more, focus becomes none and the context says so")
  func focusLost() throws {
    var state = try FocusState(layout: grid(rows: 1, columns: 1))
    let effects = reduce(&state, .replaceLayout(Layout(items: [])))
    #expect(state.focused == nil)
    #expect(
      effects == [
        .focusChanged(FocusUpdateContext(previous: "r0c0", next: nil, heading: .recovery))
      ])
  }

  @Test("from no focus, a layout with focusable items places initial focus")
  func initialAfterEmpty() throws {
    var state = try FocusState(layout: Layout(items: []))
    let effects = reduce(&state, .replaceLayout(grid(initialFocus: "r2c2")))
    #expect(
      effects == [.focusChanged(FocusUpdateContext(previous: nil, next: "r2c2", heading: .initial))]
    )
  }
}

@Suite("Labels: headings that are drawn and scrolled but never focused")
struct LabelTests {
  /// Two rows of three with a label between them, wider than the rows.
  func layout() -> Layout {
    var layout = grid(rows: 2, columns: 3)
    for index in layout.items.indices where layout.items[index].id.hasPrefix("r1") {
      layout.items[index].frame.y += 100
    }
    layout.items.append(
      Item(
        id: "heading", title: "Trending", frame: Rect(x: 0, y: 110, width: 1000, height: 40),
        kind: .label))
    return layout
  }

  @Test("moving down passes over a label to the row below")
  func skipped() throws {
    var state = try FocusState(layout: layout())
    reduce(&state, .move(.down))
    #expect(state.focused == "r1c0")
    reduce(&state, .move(.up))
    #expect(state.focused == "r0c0")
  }

  @Test("a label shows unfocused (not unavailable) and refuses focus, saying why")
  func refused() throws {
    var state = try FocusState(layout: layout())
    #expect(state.displayState(of: "heading") == .unfocused)
    #expect(!state.isFocusable("heading"))
    let effects = reduce(&state, .requestFocus(.item("heading")))
    guard case .focusRequestDenied(let error) = effects.first else {
      Issue.record("expected a denial, got \(effects)")
      return
    }
    #expect(error.reason == .unavailable)
    #expect(error.message.contains("label"), "\(error.message)")
  }

  @Test("the layout format reads kind \"label\"")
  func decodes() throws {
    let json =
      #"{"items": [{"id": "a", "frame": [0, 0, 10, 10]}, {"id": "h", "title": "Row", "kind": "label", "frame": [0, 20, 10, 10]}]}"#
    let layout = try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
    #expect(layout.items[1].kind == .label)
  }
}
