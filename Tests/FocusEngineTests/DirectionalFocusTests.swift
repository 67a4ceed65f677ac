import Testing

@testable import FocusEngine

/// A rows × columns grid of 300×200 cells with 40-point gaps, ids `r<row>c<column>`.
func grid(
  rows: Int = 3, columns: Int = 3, unavailable: Set<String> = [], initialFocus: String? = nil
)
  -> Layout
{
  var items: [Item] = []
  for row in 0..<rows {
    for column in 0..<columns {
      let id = "r\(row)c\(column)"
      items.append(
        Item(
          id: id, title: id.uppercased(),
          frame: Rect(
            x: 100 + Double(column) * 340, y: 100 + Double(row) * 240, width: 300,
            height: 200),
          available: !unavailable.contains(id)))
    }
  }
  return Layout(items: items, initialFocus: initialFocus)
}

func item(
  _ id: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double,
  available: Bool = true
) -> Item {
  Item(id: id, frame: Rect(x: x, y: y, width: width, height: height), available: available)
}

@Suite("Directional focus (tvOS beam rule)")
struct DirectionalFocusTests {
  @Test("initial focus is initialFocus when available")
  func initialFocusNamed() throws {
    let state = try FocusState(layout: grid(initialFocus: "r1c1"))
    #expect(state.focused == "r1c1")
  }

  @Test("initial focus skips an unavailable initialFocus and takes the first available item")
  func initialFocusFallsBack() throws {
    let state = try FocusState(layout: grid(unavailable: ["r0c0", "r1c1"], initialFocus: "r1c1"))
    #expect(state.focused == "r0c1")
  }

  @Test("nothing focusable gives no focus, and moves bump")
  func nothingFocusable() throws {
    var state = try FocusState(layout: grid(rows: 1, columns: 2, unavailable: ["r0c0", "r0c1"]))
    #expect(state.focused == nil)
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
  }

  @Test(
    "one step in each direction from the centre of a 3×3 grid",
    arguments: [
      (Direction.up, "r0c1"), (.down, "r2c1"), (.left, "r1c0"), (.right, "r1c2"),
    ])
  func oneStep(direction: Direction, expected: String) throws {
    var state = try FocusState(layout: grid(initialFocus: "r1c1"))
    let effects = reduce(&state, .move(direction))
    #expect(state.focused == expected)
    #expect(
      effects == [
        .focusChanged(
          FocusUpdateContext(previous: "r1c1", next: expected, heading: FocusHeading(direction)))
      ])
  }

  @Test(
    "at each edge the move fails with a bump and focus stays",
    arguments: [("r0c1", Direction.up), ("r2c1", .down), ("r1c0", .left), ("r1c2", .right)])
  func edges(start: String, direction: Direction) throws {
    var state = try FocusState(layout: grid(initialFocus: start))
    let before = state
    #expect(reduce(&state, .move(direction)) == [.movementFailed(FocusHeading(direction))])
    #expect(state == before)
  }

  @Test("unavailable items are skipped: focus jumps over them to the next in the beam")
  func skipsUnavailable() throws {
    var state = try FocusState(layout: grid(rows: 1, columns: 4, unavailable: ["r0c1"]))
    reduce(&state, .move(.right))
    #expect(state.focused == "r0c2")
  }

  @Test("an item outside the beam is never chosen, even when it is closer")
  func beamIsStrict() throws {
    // b sits to the right but entirely below the source's vertical range.
    let layout = Layout(items: [
      item("a", 0, 0, 100, 100), item("b", 150, 100, 100, 100), item("c", 800, 50, 100, 100),
    ])
    var state = try FocusState(layout: layout)
    reduce(&state, .move(.right))
    #expect(state.focused == "c")
  }

  @Test("touching perpendicular edges do not overlap the beam")
  func touchingEdgesOutsideBeam() throws {
    let layout = Layout(items: [item("a", 0, 0, 100, 100), item("b", 200, 100, 100, 100)])
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
  }

  @Test("the nearest facing edge wins over a better-aligned farther item")
  func nearestEdgeWins() throws {
    let layout = Layout(items: [
      item("a", 0, 0, 100, 100), item("near", 150, 60, 100, 100), item("aligned", 400, 0, 100, 100),
    ])
    var state = try FocusState(layout: layout)
    reduce(&state, .move(.right))
    #expect(state.focused == "near")
  }

  @Test("equal distance: the smaller centre offset wins, then reading order")
  func tieBreaks() throws {
    let offset = Layout(
      items: [
        item("a", 0, 100, 100, 100), item("high", 200, 20, 100, 100),
        item("level", 200, 110, 100, 100),
      ], initialFocus: "a")
    var state = try FocusState(layout: offset)
    reduce(&state, .move(.right))
    #expect(state.focused == "level")

    let mirror = Layout(items: [
      item("a", 100, 100, 100, 100), item("first", 50, 0, 100, 50), item("second", 150, 0, 100, 50),
    ])
    var tied = try FocusState(layout: mirror)
    reduce(&tied, .move(.up))
    #expect(tied.focused == "first")
  }

  @Test("a candidate must lie further along: an overlapping item behind the edge is not one")
  func isCandidateRule() throws {
    // "wide" starts left of the source and ends right of it: its left edge is behind.
    let layout = Layout(items: [item("a", 100, 0, 100, 100), item("wide", 50, 0, 300, 100)])
    let source = layout.items[0].frame
    let wide = layout.items[1].frame
    for direction in Direction.allCases {
      #expect(!FocusSearch.isCandidate(source, wide, direction), "\(direction)")
    }
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
  }

  @Test("overlapping items: distance is 0 and the move still goes the right way")
  func overlapping() throws {
    let layout = Layout(items: [item("a", 0, 0, 200, 100), item("b", 150, 0, 200, 100)])
    var state = try FocusState(layout: layout)
    reduce(&state, .move(.right))
    #expect(state.focused == "b")
    reduce(&state, .move(.left))
    #expect(state.focused == "a")
  }

  @Test("a wide menu item above a row of posters: down picks the nearest in its beam")
  func menuToRow() throws {
    let layout = Layout(items: [
      item("menu", 700, 0, 400, 80),
      item("p0", 100, 200, 300, 400), item("p1", 500, 200, 300, 400),
      item("p2", 900, 200, 300, 400),
    ])
    var state = try FocusState(layout: layout)
    reduce(&state, .move(.down))
    // p1 and p2 are both in the beam at the same distance; p1's centre (650) is 250 from 900,
    // p2's (1050) is 150: p2 wins.
    #expect(state.focused == "p2")
    reduce(&state, .move(.up))
    #expect(state.focused == "menu")
  }

  @Test("destination is a dry run: it does not change the state")
  func destinationDryRun() throws {
    let state = try FocusState(layout: grid())
    #expect(state.destination(from: "r0c0", .right) == "r0c1")
    #expect(state.destination(from: "r0c0", .up) == nil)
    #expect(state.destination(from: "nope", .up) == nil)
    #expect(state.focused == "r0c0")
  }
}
