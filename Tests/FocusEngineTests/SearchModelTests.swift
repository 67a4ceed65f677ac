import Testing

@testable import FocusEngine

/// Turns a case drawn for a move to the right into the same case for `direction`: mirrored for
/// left, transposed for down, transposed and mirrored for up. Distances along and across the
/// direction are unchanged, so the same item must win.
func rotated(_ frame: Rect, to direction: Direction) -> Rect {
  switch direction {
  case .right: frame
  case .left: Rect(x: -frame.maxX, y: frame.y, width: frame.width, height: frame.height)
  case .down: Rect(x: frame.y, y: frame.x, width: frame.height, height: frame.width)
  case .up: Rect(x: frame.y, y: -frame.maxX, width: frame.height, height: frame.width)
  }
}

/// `layout` with every item and guide frame rotated (see ``rotated(_:to:)``).
func rotated(_ layout: Layout, to direction: Direction) -> Layout {
  var copy = layout
  for position in copy.items.indices {
    copy.items[position].frame = rotated(copy.items[position].frame, to: direction)
  }
  for position in copy.guides.indices {
    copy.guides[position].frame = rotated(copy.guides[position].frame, to: direction)
  }
  return copy
}

/// Every (direction, model) pair.
let directionsAndModels: [(Direction, SearchModel)] = Direction.allCases.flatMap { direction in
  SearchModel.allCases.map { (direction, $0) }
}

/// Moves once from the layout's initial focus and returns the effects.
func moveOnce(
  _ layout: Layout, _ direction: Direction, search: SearchModel
) throws -> (FocusState, [FocusEffect]) {
  var rotatedLayout = rotated(layout, to: direction)
  rotatedLayout.search = search
  var state = try FocusState(layout: rotatedLayout)
  let effects = reduce(&state, .move(direction))
  return (state, effects)
}

/// The effects of a successful directional move.
func moved(_ from: String, _ to: String, _ direction: Direction) -> [FocusEffect] {
  [.focusChanged(FocusUpdateContext(previous: from, next: to, heading: FocusHeading(direction)))]
}

@Suite("Directional search in all four directions, both models")
struct SearchModelTests {
  /// The source every case starts from: a 100×100 square at the origin.
  static let source = item("src", 0, 0, 100, 100)

  func layout(_ items: [Item]) -> Layout {
    Layout(items: [Self.source] + items, initialFocus: "src")
  }

  @Test("the nearest candidate in the beam wins", arguments: directionsAndModels)
  func nearestInBeam(direction: Direction, model: SearchModel) throws {
    let (state, effects) = try moveOnce(
      layout([item("far", 400, 0, 100, 100), item("near", 150, 0, 100, 100)]), direction,
      search: model)
    #expect(effects == moved("src", "near", direction))
    #expect(state.focused == "near")
  }

  @Test("nothing further along: a bump and the state unchanged", arguments: directionsAndModels)
  func bump(direction: Direction, model: SearchModel) throws {
    var rotatedLayout = rotated(
      layout([item("behind", -300, 0, 100, 100), item("wide", -50, 0, 200, 100)]), to: direction)
    rotatedLayout.search = model
    var state = try FocusState(layout: rotatedLayout)
    let before = state
    #expect(reduce(&state, .move(direction)) == [.movementFailed(FocusHeading(direction))])
    #expect(state == before)
  }

  @Test(
    "a candidate partly beyond the leading edge counts; one sharing it does not",
    arguments: directionsAndModels)
  func partlyBeyond(direction: Direction, model: SearchModel) throws {
    // "overlap" starts inside the source and ends beyond it: a candidate at distance 0.
    let (_, effects) = try moveOnce(
      layout([item("overlap", 50, 0, 100, 100), item("far", 300, 0, 100, 100)]), direction,
      search: model)
    #expect(effects == moved("src", "overlap", direction))
    // "same" has the same far edge as the source: not further along.
    let (_, none) = try moveOnce(layout([item("same", 50, 0, 50, 100)]), direction, search: model)
    #expect(none == [.movementFailed(FocusHeading(direction))])
  }

  @Test("touching the beam's edge is outside it", arguments: Direction.allCases)
  func touchingBeamTvOS(direction: Direction) throws {
    let (_, effects) = try moveOnce(
      layout([item("touch", 150, 100, 100, 100)]), direction, search: .tvos)
    #expect(effects == [.movementFailed(FocusHeading(direction))])
  }

  @Test(
    "tvOS: equal distance goes to the smaller centre offset", arguments: Direction.allCases)
  func tvosCentreOffset(direction: Direction) throws {
    let (_, effects) = try moveOnce(
      layout([item("off60", 200, 60, 100, 100), item("off30", 200, -30, 100, 100)]), direction,
      search: .tvos)
    #expect(effects == moved("src", "off30", direction))
  }

  @Test(
    "a full tie: tvOS takes the earlier in reading order, Android the earlier declared",
    arguments: directionsAndModels)
  func readingOrderTie(direction: Direction, model: SearchModel) throws {
    // In every rotation "first" reads before "second" (above it, or level and to its left),
    // and "second" is declared first.
    let (_, effects) = try moveOnce(
      layout([item("second", 200, 50, 100, 100), item("first", 200, -50, 100, 100)]), direction,
      search: model)
    #expect(effects == moved("src", model == .tvos ? "first" : "second", direction))
  }

  @Test(
    "rtl: a full tie goes to the leading (right-hand) item in tvOS",
    arguments: SearchModel.allCases)
  func readingOrderTieRTL(model: SearchModel) throws {
    // Android ignores reading order: "right" is declared first, whatever the direction.
    let cases: [(LayoutDirection, String)] =
      model == .tvos ? [(.ltr, "left"), (.rtl, "right")] : [(.ltr, "right"), (.rtl, "right")]
    for (direction, expected) in cases {
      let layout = Layout(
        items: [
          item("src", 0, 300, 100, 100), item("right", 50, 0, 100, 100),
          item("left", -50, 0, 100, 100),
        ],
        initialFocus: "src", search: model, layoutDirection: direction)
      var state = try FocusState(layout: layout)
      #expect(reduce(&state, .move(.up)) == moved("src", expected, .up), "\(direction)")
    }
  }

  @Test(
    "tvOS takes the nearer edge; Android's 13·major² + minor² takes the aligned one",
    arguments: directionsAndModels)
  func weightedVersusNearest(direction: Direction, model: SearchModel) throws {
    // near: major 10, minor 90 → 13·100 + 8100 = 9400. aligned: major 20, minor 0 → 5200.
    let (_, effects) = try moveOnce(
      layout([item("near", 110, 90, 100, 100), item("aligned", 120, 0, 100, 100)]), direction,
      search: model)
    #expect(effects == moved("src", model == .tvos ? "near" : "aligned", direction))
  }

  @Test(
    "out of the beam: tvOS bumps, Android takes the best candidate outside",
    arguments: directionsAndModels)
  func outsideBeamOnly(direction: Direction, model: SearchModel) throws {
    // Both outside the beam: a: major 50, minor 150 → 13·2500 + 22500 = 55000;
    // b: major 10, minor 200 → 1300 + 40000 = 41300.
    let (state, effects) = try moveOnce(
      layout([item("a", 150, 150, 100, 100), item("b", 110, -200, 100, 100)]), direction,
      search: model)
    if model == .tvos {
      #expect(effects == [.movementFailed(FocusHeading(direction))])
      #expect(state.focused == "src")
    } else {
      #expect(effects == moved("src", "b", direction))
    }
  }

  @Test(
    "Android: a far beam candidate beats a nearer one outside the beam (left/right always)",
    arguments: Direction.allCases)
  func androidBeamBeatsFar(direction: Direction) throws {
    // beam: major 900. outside: entirely beyond the source, far edge 150 away, weighted much
    // smaller. Left/right: the beam always wins. Up/down: the outside one is entirely closer
    // (its far edge, 150, is nearer than the beam item's near edge, 900): it wins.
    let (_, effects) = try moveOnce(
      layout([item("beam", 1000, 0, 100, 100), item("outside", 150, 150, 100, 100)]), direction,
      search: .android)
    let horizontal = direction == .left || direction == .right
    #expect(effects == moved("src", horizontal ? "beam" : "outside", direction))
  }

  @Test(
    "Android: a beam candidate beats an outside one that is not entirely closer",
    arguments: Direction.allCases)
  func androidBeamBeatsNear(direction: Direction) throws {
    // beam: major 100. outside: far edge 150 > 100, so not entirely closer, although its
    // weighted distance (13·2500 + 22500 = 55000) is below the beam's (130000).
    let (_, effects) = try moveOnce(
      layout([item("outside", 150, 150, 100, 100), item("beam", 200, 0, 100, 100)]), direction,
      search: .android)
    #expect(effects == moved("src", "beam", direction))
  }

  @Test(
    "Android: an outside candidate not entirely beyond the source edge loses to the beam",
    arguments: Direction.allCases)
  func androidNotToDirection(direction: Direction) throws {
    // "straddle" overlaps the source's leading edge along the direction (not isToDirectionOf):
    // the beam item wins whatever the distances.
    let (_, effects) = try moveOnce(
      layout([item("beam", 2000, 0, 100, 100), item("straddle", 60, 120, 100, 100)]), direction,
      search: .android)
    #expect(effects == moved("src", "beam", direction))
  }

  @Test(
    "the FocusSearch primitives follow AOSP on a worked example", arguments: Direction.allCases)
  func primitives(direction: Direction) {
    let source = AndroidRect(rotated(Rect(x: 0, y: 0, width: 100, height: 100), to: direction))
    let beam = AndroidRect(rotated(Rect(x: 300, y: 50, width: 100, height: 100), to: direction))
    let outside = AndroidRect(
      rotated(Rect(x: 150, y: 150, width: 60, height: 100), to: direction))
    typealias Finder = AndroidFocusFinder
    #expect(Finder.isCandidate(source, beam, direction))
    #expect(Finder.beamsOverlap(direction, source, beam))
    #expect(!Finder.beamsOverlap(direction, source, outside))
    #expect(Finder.majorAxisDistance(direction, source, beam) == 200)
    #expect(Finder.majorAxisDistanceToFarEdge(direction, source, outside) == 110)
    #expect(Finder.minorAxisDistance(direction, source, beam) == 50)
    #expect(Finder.weightedDistance(major: 200, minor: 50) == 13 * 200 * 200 + 50 * 50)
    // beam's near edge (200) is not below outside's far edge (110): up/down lose the beam's
    // advantage, left/right keep it.
    let horizontal = direction == .left || direction == .right
    #expect(Finder.beamBeats(direction, source, beam, outside) == horizontal)
    #expect(!Finder.beamBeats(direction, source, outside, beam))
    // Overlapping destinations: the far-edge distance is at least 1.
    #expect(Finder.majorAxisDistanceToFarEdge(direction, source, source) == 1)
  }

  @Test(
    "a group's search model applies to moves that start inside it", arguments: Direction.allCases)
  func perGroupOverride(direction: Direction) throws {
    // Only "b" lies that way, outside the beam: Android moves there, tvOS bumps.
    let base = Layout(
      items: [Self.source, item("b", 150, 150, 100, 100)],
      groups: [Group(id: "g", items: ["src"], search: .android)], initialFocus: "src",
      search: .tvos)
    var state = try FocusState(layout: rotated(base, to: direction))
    #expect(reduce(&state, .move(direction)) == moved("src", "b", direction))

    var inverse = rotated(base, to: direction)
    inverse.search = .android
    inverse.groups[0].search = .tvos
    var tvos = try FocusState(layout: inverse)
    #expect(reduce(&tvos, .move(direction)) == [.movementFailed(FocusHeading(direction))])
  }

  @Test("a nested group inherits the nearest ancestor's model")
  func nestedInherits() throws {
    let layout = Layout(
      items: [Self.source, item("b", 150, 150, 100, 100)],
      groups: [
        Group(id: "outer", groups: [Group(id: "inner", items: ["src"])], search: .android)
      ],
      initialFocus: "src")
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == moved("src", "b", .right))
  }

  @Test(
    "unavailable items and items of disabled groups are never candidates",
    arguments: directionsAndModels)
  func skipsUnfocusable(direction: Direction, model: SearchModel) throws {
    var base = layout([
      item("gone", 150, 0, 100, 100, available: false), item("off", 300, 0, 100, 100),
      item("ok", 600, 0, 100, 100),
    ])
    base.groups = [Group(id: "disabled", items: ["off"], enabled: false)]
    let (_, effects) = try moveOnce(base, direction, search: model)
    #expect(effects == moved("src", "ok", direction))
  }

  @Test("a move from nothing focused bumps")
  func noFocus() throws {
    var state = try FocusState(layout: Layout(items: [item("a", 0, 0, 10, 10, available: false)]))
    for direction in Direction.allCases {
      #expect(reduce(&state, .move(direction)) == [.movementFailed(FocusHeading(direction))])
    }
  }

  @Test("the cause is carried into the update context")
  func cause() throws {
    var state = try FocusState(layout: grid())
    let cause = FocusCause(sender: "remote-1", sequence: 42)
    #expect(
      reduce(&state, .move(.right), cause: cause) == [
        .focusChanged(
          FocusUpdateContext(previous: "r0c0", next: "r0c1", heading: .right, cause: cause))
      ])
  }
}
