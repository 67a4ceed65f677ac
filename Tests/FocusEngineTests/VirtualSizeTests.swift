import Foundation
import Testing

@testable import FocusEngine

/// Per-index sizes (``SizeRuns``): a virtual row or column whose items have lengths of their
/// own along it, placed, searched, hit and windowed by the runs' prefix sums.
@Suite("Virtual groups with per-index sizes")
struct VirtualSizeTests {
  /// An EPG at 10 points a minute: two channel rows in one guide that scrolls them together.
  /// bbc (y 100–180): 30, 30, 80 min, then four of 15 — [0,300) [300,600) [600,1400)
  /// [1400,1550) [1550,1700) [1700,1850) [1850,2000). itv (y 200–280): 60 min, six of 15,
  /// 120 min — [0,600) [600,750) … [1350,1500) [1500,2700).
  static func epg() -> Layout {
    func row(_ id: String, y: Double, _ runs: [SizeRun]) -> Group {
      Group(
        id: id,
        virtual: VirtualItems(
          count: runs.reduce(0) { $0 + $1.count }, origin: Point(x: 0, y: y),
          itemSize: Size(width: 1, height: 80), titlePrefix: id + " ", sizes: SizeRuns(runs)))
    }
    return Layout(
      canvas: Size(width: 1920, height: 1080), items: [],
      groups: [
        Group(
          id: "guide",
          groups: [
            row(
              "bbc", y: 100,
              [
                .init(count: 2, length: 300), .init(count: 1, length: 800),
                .init(count: 4, length: 150),
              ]),
            row(
              "itv", y: 200,
              [
                .init(count: 1, length: 600), .init(count: 6, length: 150),
                .init(count: 1, length: 1200),
              ]),
          ], scroll: .horizontal, viewport: Rect(x: 0, y: 0, width: 1000, height: 1080))
      ])
  }

  /// A column of a million items in three runs (heights 100, 50, 200), 10 apart.
  static func column(count: Int = 1_000_000) -> VirtualItems {
    VirtualItems(
      count: count, origin: Point(x: 20, y: 40), itemSize: Size(width: 400, height: 1),
      spacing: Size(width: 0, height: 10), arrangement: .column,
      sizes: SizeRuns([
        SizeRun(count: 10, length: 100), SizeRun(count: count - 20, length: 50),
        SizeRun(count: 10, length: 200),
      ]))
  }

  @Test("frames come from the runs' prefix sums, the gap added per index")
  func frames() {
    let items = Self.column()
    #expect(items.frame(at: 0) == Rect(x: 20, y: 40, width: 400, height: 100))
    #expect(items.frame(at: 9) == Rect(x: 20, y: 40 + 9 * 110, width: 400, height: 100))
    #expect(items.frame(at: 10) == Rect(x: 20, y: 40 + 10 * 110, width: 400, height: 50))
    let lastRunStart = 40 + 10 * 110 + Double(999_980) * 60
    #expect(items.frame(at: 999_990) == Rect(x: 20, y: lastRunStart, width: 400, height: 200))
    #expect(
      items.bounds
        == Rect(x: 20, y: 40, width: 400, height: lastRunStart + 9 * 210 + 200 - 40))
    let epg = Self.epg().groups[0].groups
    #expect(epg[0].virtual?.frame(at: 2) == Rect(x: 600, y: 100, width: 800, height: 80))
    #expect(epg[1].virtual?.frame(at: 7) == Rect(x: 1500, y: 200, width: 1200, height: 80))
  }

  @Test("the window holds the items that meet it, found by binary search over the runs")
  func window() {
    let items = Self.column()
    // Item 500,010 spans top to top + 50; 500,009 ends 10 above it, 500,012 starts 120 below.
    let top = items.frame(at: 500_010).minY
    #expect(top == 40 + 10 * 110 + 500_000 * 60)
    #expect(
      items.indices(in: Rect(x: 0, y: top - 15, width: 1920, height: 130)) == [
        500_009, 500_010, 500_011,
      ])
    #expect(
      items.indices(in: Rect(x: 0, y: top - 5, width: 1920, height: 130)) == [
        500_010, 500_011, 500_012,
      ])
    // Item 1 starts at 150: a window ending there does not meet it.
    #expect(items.indices(in: Rect(x: 0, y: 0, width: 1920, height: 150)) == [0])
    #expect(items.indices(in: Rect(x: 0, y: 0, width: 1920, height: 151)) == [0, 1])
    // A window in a gap between two items meets neither.
    #expect(items.indices(in: Rect(x: 0, y: 141, width: 1920, height: 8)) == [])
    let bbc = Self.epg().groups[0].groups[0].virtual
    #expect(bbc?.indices(in: Rect(x: 500, y: 0, width: 1000, height: 1080)) == [1, 2, 3])
  }

  @Test(
    "an EPG's up and down land on the overlapping programme of the next row nearest its middle",
    arguments: [
      ("bbc#2", Direction.down, "itv#3"), ("itv#7", .up, "bbc#6"), ("bbc#3", .down, "itv#6"),
      ("itv#3", .up, "bbc#2"), ("bbc#1", .right, "bbc#2"), ("bbc#3", .left, "bbc#2"),
      ("itv#0", .right, "itv#1"),
    ])
  func epgMoves(from: String, direction: Direction, expected: String) throws {
    var state = try FocusState(layout: Self.epg())
    _ = reduce(&state, .requestFocus(.item(from)))
    #expect(state.focused == from)
    _ = reduce(&state, .move(direction))
    #expect(state.focused == expected)
    let source = try #require(state.layout.groups[0].groups.first { from.hasPrefix($0.id) })
    let target = try #require(state.layout.groups[0].groups.first { expected.hasPrefix($0.id) })
    let index = { (id: String) in Int(id.split(separator: "#")[1])! }
    let a = try #require(source.virtual?.frame(at: index(from)))
    let b = try #require(target.virtual?.frame(at: index(expected)))
    // Up and down: the programmes overlap in time.
    if direction == .up || direction == .down { #expect(a.maxX > b.minX && b.maxX > a.minX) }
  }

  @Test("moving right through mixed lengths scrolls the guide to show each programme")
  func scrollIntoView() throws {
    var state = try FocusState(layout: Self.epg())
    _ = reduce(&state, .requestFocus(.item("itv#1")))
    for expected in 2...6 {
      _ = reduce(&state, .move(.right))
      #expect(state.focused == "itv#\(expected)")
      let shown = try #require(state.presentedFrame(of: "itv#\(expected)"))
      #expect(shown.minX >= 0 && shown.maxX <= 1000)
    }
    // itv#6 spans 1350–1500: the guide scrolled past 500.
    #expect((state.scrollOffsets["guide"]?.x ?? 0) >= 500)
    // bbc scrolls with it: its programmes are placed by the same offset.
    #expect(
      state.presentedFrame(of: "bbc#3")?.minX == 1400 - (state.scrollOffsets["guide"]?.x ?? 0))
  }

  @Test("a million-item column: moves, the pointer and Tab by index arithmetic over the runs")
  func column() throws {
    let layout = Layout(
      items: [Item(id: "side", frame: Rect(x: 500, y: 40, width: 100, height: 100))],
      groups: [
        Group(
          id: "list", scroll: .vertical, viewport: Rect(x: 0, y: 0, width: 480, height: 1080),
          virtual: Self.column())
      ], initialFocus: "side")
    var state = try FocusState(layout: layout)
    _ = reduce(&state, .requestFocus(.item("list#999989")))
    _ = reduce(&state, .move(.down))
    #expect(state.focused == "list#999990")
    _ = reduce(&state, .move(.up))
    _ = reduce(&state, .move(.up))
    #expect(state.focused == "list#999988")
    let shown = try #require(state.presentedFrame(of: "list#999990"))
    let effects = reduce(
      &state,
      .pointer(
        PointerSample(.moved, position: Point(x: 100, y: shown.midY + 60), at: 1_000_000)))
    #expect(state.pointer.target == "list#999990")
    #expect(effects.contains { if case .focusChanged = $0 { true } else { false } })
  }

  @Test("the pointer over items of different lengths hits the one under it (past the margin)")
  func pointerHit() throws {
    var state = try FocusState(layout: Self.epg())
    _ = reduce(
      &state, .pointer(PointerSample(.moved, position: Point(x: 590, y: 150), at: 1_000_000)))
    #expect(state.pointer.target == "bbc#1")
    _ = reduce(
      &state, .pointer(PointerSample(.moved, position: Point(x: 700, y: 240), at: 1_100_000)))
    #expect(state.pointer.target == "itv#1")
    _ = reduce(
      &state, .pointer(PointerSample(.moved, position: Point(x: 660, y: 150), at: 1_200_000)))
    #expect(state.pointer.target == "bbc#2")
    // Focus on bbc#2 (600–1400) scrolled the guide; the pointer hits through the offset.
    let offset = try #require(state.scrollOffsets["guide"]).x
    #expect(offset > 0)
    _ = reduce(
      &state,
      .pointer(PointerSample(.moved, position: Point(x: 1425 - offset, y: 150), at: 1_300_000)))
    #expect(state.pointer.target == "bbc#3")
  }

  @Test("the app is asked for the programmes in view and a window on each side")
  func itemsInView() throws {
    let state = try FocusState(layout: Self.epg())
    // The guide shows 0–1000: bbc 0–2 and itv 0–3 in view; the margins reach the ends.
    #expect(
      state.itemsInView == [
        VirtualRange(group: "bbc", range: 0..<6), VirtualRange(group: "itv", range: 0..<8),
      ])
  }

  @Test(
    "size runs are validated with a path",
    arguments: [
      ([SizeRun(count: 0, length: 10), SizeRun(count: 5, length: 10)], "sizes[0].count"),
      ([SizeRun(count: 5, length: 0)], "sizes[0].length"),
      ([SizeRun(count: 2, length: 1), SizeRun(count: 3, length: -.infinity)], "sizes[1].length"),
      ([SizeRun(count: 5, length: .nan)], "sizes[0].length"),
      ([SizeRun(count: 4, length: 10)], "sizes"),
      ([SizeRun(count: 6, length: 10)], "sizes"),
      ([], "sizes"),
      ([SizeRun(count: 5, length: 1e308)], "sizes"),
    ])
  func invalid(runs: [SizeRun], path: String) {
    let layout = Layout(
      items: [],
      groups: [
        Group(
          id: "g",
          virtual: VirtualItems(
            count: 5, itemSize: Size(width: 1, height: 1), sizes: SizeRuns(runs)))
      ])
    #expect {
      try layout.validate()
    } throws: { error in
      (error as? LayoutError)?.path == "groups[0].virtual.\(path)"
    }
  }

  @Test("a grid with runs and more than 100,000 runs are refused, saying why")
  func refused() throws {
    func error(_ virtual: VirtualItems) -> LayoutError? {
      do {
        try Layout(items: [], groups: [Group(id: "g", virtual: virtual)]).validate()
        return nil
      } catch { return error }
    }
    let grid = try #require(
      error(
        VirtualItems(
          count: 4, itemSize: Size(width: 1, height: 1), arrangement: .grid(columns: 2),
          sizes: SizeRuns([SizeRun(count: 4, length: 3)]))))
    #expect(grid.path == "groups[0].virtual.sizes")
    #expect(grid.reason.contains("not a grid"))
    let many = Array(repeating: SizeRun(count: 1, length: 3), count: 100_001)
    let tooMany = try #require(
      error(
        VirtualItems(count: 100_001, itemSize: Size(width: 1, height: 1), sizes: SizeRuns(many))))
    #expect(tooMany.reason == "must hold 1 to 100000 runs, got 100001")
    let short = try #require(
      error(
        VirtualItems(
          count: 5, itemSize: Size(width: 1, height: 1),
          sizes: SizeRuns([SizeRun(count: 4, length: 3)]))))
    #expect(short.reason == "the runs cover 4 items, the group declares 5")
  }

  @Test("a layout's groups hold at most 1,000,000 size runs together; the group past it is named")
  func layoutWideRuns() throws {
    let runs = SizeRuns(Array(repeating: SizeRun(count: 1, length: 3), count: 100_000))
    func rows(_ count: Int) -> Layout {
      Layout(
        items: [],
        groups: (0..<count).map { row in
          Group(
            id: "row\(row)",
            virtual: VirtualItems(
              count: 100_000, origin: Point(x: 0, y: Double(row) * 10),
              itemSize: Size(width: 1, height: 8), sizes: runs))
        })
    }
    #expect(Layout.maximumSizeRunCount == 1_000_000)
    try rows(10).validate()
    #expect(
      throws: LayoutError(
        path: "groups[10].virtual.sizes",
        reason:
          "the layout's virtual groups declare 1100000 size runs so far (at most 1000000 in all)"
      )
    ) {
      try rows(11).validate()
    }
    // The patch path validates the whole layout too: the engine refuses it and keeps its own.
    var state = try FocusState(layout: rows(10))
    let before = state
    let effects = reduce(
      &state,
      .applyPatch(
        LayoutPatch([
          .addGroup(
            Group(
              id: "row10",
              virtual: VirtualItems(
                count: 100_000, origin: Point(x: 0, y: 100), itemSize: Size(width: 1, height: 8),
                sizes: runs)), parent: nil)
        ])))
    guard case .layoutRejected(let error) = effects.first else {
      Issue.record("the patch past the limit was applied: \(effects)")
      return
    }
    #expect(error.path == "groups[10].virtual.sizes")
    #expect(state == before)
  }

  @Test("the JSON format declares runs; a run's unknown field is an error")
  func json() throws {
    let text = """
      {"items": [], "groups": [{"id": "bbc", "virtual": {"count": 3,
        "itemSize": {"width": 1, "height": 80},
        "sizes": [{"count": 2, "length": 300}, {"count": 1, "length": 900}]}}]}
      """
    let layout = try JSONDecoder().decode(Layout.self, from: Data(text.utf8))
    let virtual = try #require(layout.groups.first?.virtual)
    #expect(
      virtual.sizes == SizeRuns([SizeRun(count: 2, length: 300), SizeRun(count: 1, length: 900)]))
    #expect(virtual.frame(at: 2) == Rect(x: 600, y: 0, width: 900, height: 80))
    let bad = text.replacingOccurrences(of: "\"length\": 900", with: "\"length\": 900, \"x\": 1")
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Layout.self, from: Data(bad.utf8))
    }
  }
}
