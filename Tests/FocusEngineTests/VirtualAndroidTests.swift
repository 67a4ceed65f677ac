import Testing

@testable import FocusEngine

/// Virtual groups in the Android model (AOSP's fold over listed items, then each virtual
/// group's items by index, then guides), checked against the AOSP port on the same items
/// made one by one; and the pointer's flick across a virtual group.
@Suite("Virtual groups in the Android model and under the pointer's flick")
struct VirtualAndroidTests {
  /// Seeded layouts compared.
  static let layouts = 300

  @Test("Android moves over virtual groups agree with AOSP over the same items listed")
  func agreesWithAOSP() throws {
    var comparisons = 0
    var moves = 0
    var failures: [String] = []
    for seed in 0..<UInt64(Self.layouts) {
      let result = try VirtualDifferential.run(seed: 7_000_000 + seed)
      comparisons += result.comparisons
      moves += result.moves
      failures += result.failures
      if failures.count >= 5 { break }
    }
    for failure in failures { Issue.record(Comment(rawValue: failure)) }
    #expect(comparisons >= Self.layouts * 16, "only \(comparisons) comparisons")
    #expect(moves * 3 >= comparisons, "only \(moves) of \(comparisons) found a destination")
  }

  @Test("a million-cell grid in the Android model: neighbours by index, a coast by index")
  func millionCells() throws {
    let grid = Group(
      id: "grid",
      virtual: VirtualItems(
        count: 1_000_000, origin: Point(x: 100, y: 300), itemSize: Size(width: 200, height: 100),
        spacing: Size(width: 20, height: 20), arrangement: .grid(columns: 1_000)))
    let menu = Item(id: "menu", frame: Rect(x: 150, y: 100, width: 100, height: 60))
    var state = try FocusState(
      layout: Layout(items: [menu], groups: [grid], initialFocus: "menu", search: .android))
    #expect(state.destination(from: "menu", .down) == "grid#0")
    #expect(state.destination(from: "grid#0", .right) == "grid#1")
    #expect(state.destination(from: "grid#1", .down) == "grid#1001")
    #expect(state.destination(from: "grid#1001", .left) == "grid#1000")
    #expect(state.destination(from: "grid#1000", .up) == "grid#0")
    #expect(state.destination(from: "grid#0", .up) == "menu")
    #expect(state.destination(from: "grid#999999", .right) == nil)
    #expect(state.destination(from: "grid#999999", .down) == nil)
    #expect(state.destination(from: "grid#999000", .left) == nil)
    _ = reduce(&state, .move(.down))
    for _ in 0..<500 { reduce(&state, .move(.right)) }
    for _ in 0..<300 { reduce(&state, .move(.down)) }
    #expect(state.focused == "grid#300500")
  }

  /// A rail of 100,000 posters 200 wide, 20 apart, in a scrolling group.
  func rail() throws -> FocusState {
    let rail = Group(
      id: "rail", scroll: .horizontal, viewport: Rect(x: 0, y: 250, width: 1920, height: 250),
      virtual: VirtualItems(
        count: 100_000, origin: Point(x: 0, y: 300), itemSize: Size(width: 200, height: 150),
        spacing: Size(width: 20, height: 0)))
    let top = Item(id: "top", frame: Rect(x: 0, y: 0, width: 200, height: 100))
    return try FocusState(layout: Layout(items: [top], groups: [rail], initialFocus: "top"))
  }

  @Test("a flick across a virtual rail lands on the item under the projected end point")
  func flickAcross() throws {
    var state = try rail()
    _ = reduce(&state, .pointer(PointerSample(.moved, position: Point(x: 100, y: 375), at: 1)))
    #expect(state.focused == "rail#0")
    // 10,500 pt/s × 0.099 s = 1039.5 points: the end at x = 1139.5 lies in item 5
    // (1100–1300).
    let release = PointerSample(
      .up, position: Point(x: 100, y: 375), velocity: Point(x: 10_500, y: 0), at: 2)
    let effects = reduce(&state, .pointer(release))
    #expect(
      effects.first
        == .focusChanged(FocusUpdateContext(previous: "rail#0", next: "rail#5", heading: .pointer)))
    #expect(state.pointer.position == Point(x: 1200, y: 375))
    #expect(state.pointer.target == "rail#5")
  }

  @Test("a flick over a scrolled rail counts the scroll offset; one across it lands on it")
  func flickScrolled() throws {
    var state = try rail()
    _ = reduce(&state, .requestFocus(.item("rail#50000")))
    let offset = try #require(state.scrollOffsets["rail"]).x
    #expect(offset > 10_000_000)
    // From the middle of item 50,000 as shown (focused already, so nothing scrolls; it sits
    // near the viewport's right edge), 6,000 pt/s to the left carries the pointer 594
    // points: content x 50,000 × 220 + 100 − 594, 165 points into item 49,997.
    let start = Point(x: 50_000 * 220 + 100 - offset, y: 380)
    _ = reduce(&state, .pointer(PointerSample(.moved, position: start, at: 10)))
    #expect(state.focused == "rail#50000")
    _ = reduce(
      &state,
      .pointer(PointerSample(.up, position: start, velocity: Point(x: -6_000, y: 0), at: 11)))
    #expect(state.focused == "rail#49997")
    // Straight down past the rail: of the items on the path, the rail's is nearest the end
    // point (which lies below the rail).
    var top = try rail()
    _ = reduce(&top, .pointer(PointerSample(.moved, position: Point(x: 330, y: 50), at: 1)))
    _ = reduce(
      &top,
      .pointer(
        PointerSample(.up, position: Point(x: 330, y: 50), velocity: Point(x: 0, y: 9_000), at: 2)))
    #expect(top.focused == "rail#1")
  }
}

/// One seeded layout of listed items and virtual groups (rows, columns, grids; uniform or
/// sized by runs; some items made unavailable by their content) compared in every direction
/// from several sources with the AOSP port over the same items made one by one.
enum VirtualDifferential {
  static func run(seed: UInt64) throws -> DifferentialCase.Result {
    var rng = SplitMix64(seed: seed)
    var items: [Item] = []
    for position in 0..<rng.int(0...6) {
      items.append(
        Item(
          id: "i\(position)",
          frame: Rect(
            x: Double(rng.int(-1_500...1_500)), y: Double(rng.int(-1_500...1_500)),
            width: Double(rng.int(0...300)), height: Double(rng.int(0...300))),
          available: !rng.chance(0.15)))
    }
    let groups = (0..<rng.int(1...2)).map { group(index: $0, &rng) }
    let state = try FocusState(layout: Layout(items: items, groups: groups, search: .android))
    // AOSP's focusables: listed items in declaration order, then each group's items by index.
    var ids: [String] = items.filter(\.available).map(\.id)
    var rects: [JavaRect] = items.filter(\.available).map { java($0.frame) }
    for group in groups {
      guard let virtual = group.virtual else { continue }
      for index in 0..<virtual.count where virtual.isAvailable(index) {
        ids.append(VirtualItems.id(group: group.id, index: index))
        rects.append(java(virtual.frame(at: index)))
      }
    }
    var result = DifferentialCase.Result()
    for source in ids.indices.shuffled(using: &rng).prefix(8) {
      for direction in Direction.allCases {
        var finder = AOSPFocusFinder()
        let expected = finder.findNextFocusInAbsoluteDirection(
          rects, source, rects[source], DifferentialCase.javaDirection(direction)
        ).map { ids[$0] }
        let actual = state.destination(from: ids[source], direction)
        result.comparisons += 1
        if expected != nil { result.moves += 1 }
        if actual != expected {
          result.failures.append(
            "seed \(seed): from \(ids[source]) \(direction): engine \(actual ?? "nothing"), "
              + "AOSP \(expected ?? "nothing"); items \(items.map { "\($0.id) \($0.frame)" }), "
              + "groups \(groups.map { "\($0.id) \(String(describing: $0.virtual))" })")
        }
      }
    }
    return result
  }

  static func group(index: Int, _ rng: inout SplitMix64) -> Group {
    // Every extent stays under 12,852 points, where Java's weighted distance overflows.
    let count = rng.int(1...120)
    let arrangement: VirtualArrangement =
      switch rng.int(0...2) {
      case 0: .row
      case 1: .column
      default: .grid(columns: rng.int(1...20))
      }
    var sizes: SizeRuns?
    if arrangement == .row || arrangement == .column, rng.chance(0.4) {
      var runs: [SizeRun] = []
      var left = count
      while left > 0 {
        let run = min(left, rng.int(1...40))
        runs.append(SizeRun(count: run, length: Double(rng.int(10...60))))
        left -= run
      }
      sizes = SizeRuns(runs)
    }
    var content: [Int: VirtualContent] = [:]
    for _ in 0..<rng.int(0...10) {
      content[rng.int(0...(count - 1))] = VirtualContent(available: false)
    }
    return Group(
      id: "v\(index)",
      virtual: VirtualItems(
        count: count,
        origin: Point(x: Double(rng.int(-1_500...1_500)), y: Double(rng.int(-1_500...1_500))),
        itemSize: Size(width: Double(rng.int(10...60)), height: Double(rng.int(10...60))),
        spacing: Size(width: Double(rng.int(0...20)), height: Double(rng.int(0...20))),
        arrangement: arrangement, content: content, sizes: sizes))
  }

  static func java(_ frame: Rect) -> JavaRect {
    JavaRect(
      left: Int32(frame.minX), top: Int32(frame.minY), right: Int32(frame.maxX),
      bottom: Int32(frame.maxY))
  }
}
