import Testing

@testable import FocusEngine

/// The index arithmetic of a virtual group held to the straightforward computation on seeded
/// declarations: the few cells a directional search names hold the winner of all the group's
/// cells, and the ranges a content request names are the ones a list of spans per row gives.
@Suite("A virtual group's search cells and request ranges")
struct VirtualSearchCellTests {
  @Test("the cells a search names hold the winner among all the group's available cells")
  func searchCells() {
    var rng = SplitMix64(seed: 68)
    var found = 0
    var none = 0
    var partial = 0
    var stepped = 0
    var wide = 0
    for _ in 0..<3_000 {
      let items = Self.declaration(&rng)
      if items.count % items.columns != 0 { partial += 1 }
      // From a cell of the group (which the search leaves out) or from anywhere around it, wide
      // sources included: their nearest lines may hold no available candidate.
      let excluded = rng.chance(0.6) ? rng.int(0...items.count - 1) : nil
      let unavailable = items.content.values.contains { !$0.available }
      let source = excluded.map { items.frame(at: $0) } ?? Self.rect(&rng)
      for direction in Direction.allCases {
        var expected = TVOSBest(source: source, direction: direction)
        for item in 0..<items.count where item != excluded && items.isAvailable(item) {
          expected.consider(items.frame(at: item), rank: item, .item(item))
        }
        var actual = TVOSBest(source: source, direction: direction)
        items.forEachSearchCell(from: source, direction) { item in
          guard item != excluded else { return }
          #expect(items.isAvailable(item))
          actual.consider(items.frame(at: item), rank: item, .item(item))
        }
        #expect(actual.hit == expected.hit, "\(items) from \(source) \(direction)")
        if expected.hit == nil { none += 1 } else { found += 1 }
        if case .item(let item)? = expected.hit, !items.isAvailable(item + 1) { stepped += 1 }
        if excluded == nil, unavailable, expected.hit != nil { wide += 1 }
      }
    }
    // Wins, misses, partial last rows, winners next to unavailable items and winners from
    // sources around a group with unavailable items all happen.
    #expect(found > 5_000)
    #expect(none > 1_000)
    #expect(partial > 500)
    #expect(stepped > 200)
    #expect(wide > 400)
  }

  @Test("a request's ranges are each row's columns less the region asked before, row by row")
  func requestRanges() {
    var rng = SplitMix64(seed: 69)
    var cut = 0
    var split = 0
    for _ in 0..<5_000 {
      let width = rng.int(1...40)
      let count = rng.int(1...width * 30)
      func region(_ rng: inout SplitMix64) -> VirtualRegion {
        let row = rng.int(0...30)
        let column = rng.int(0...width)
        return VirtualRegion(
          rows: row..<row + rng.int(0...10), columns: column..<min(width, column + rng.int(0...20)))
      }
      let wanted = region(&rng)
      var previous = rng.chance(0.8) ? region(&rng) : nil
      if rng.chance(0.4), !wanted.columns.isEmpty {
        // Inside the columns wanted now: the rows it covers split in two.
        let low = rng.int(wanted.columns.lowerBound...wanted.columns.upperBound - 1)
        let high = rng.int(low...wanted.columns.upperBound)
        previous = VirtualRegion(
          rows: wanted.rows.lowerBound..<wanted.rows.upperBound + 2, columns: low..<high)
      }
      let expected = Self.straightforwardRanges(
        wanted, excluding: previous, columns: width, count: count)
      #expect(
        wanted.ranges(excluding: previous, columns: width, count: count) == expected,
        "\(wanted) \(String(describing: previous)) \(width) \(count)")
      if let previous, wanted.rows.overlaps(previous.rows) { cut += 1 }
      if expected.count > wanted.rows.count { split += 1 }
    }
    // Rows the region before covers, and rows it splits in two, happen often enough.
    #expect(cut > 1_000)
    #expect(split > 100)
  }

  /// ``VirtualRegion/ranges(excluding:columns:count:)`` as first written: an array of spans
  /// per row.
  static func straightforwardRanges(
    _ region: VirtualRegion, excluding other: VirtualRegion?, columns width: Int, count: Int
  ) -> [Range<Int>] {
    var result: [Range<Int>] = []
    for row in region.rows {
      var spans = [region.columns]
      if let other, other.rows.contains(row) {
        let cut = other.columns.clamped(to: region.columns)
        spans =
          cut.isEmpty
          ? [region.columns]
          : [
            region.columns.lowerBound..<cut.lowerBound, cut.upperBound..<region.columns.upperBound,
          ]
      }
      for span in spans where !span.isEmpty {
        let low = row * width + span.lowerBound
        let high = min(row * width + span.upperBound, count)
        if low < high { result.append(low..<high) }
      }
    }
    return result
  }

  /// A seeded declaration of up to 300 items: a row, a column or a grid (its last row often
  /// partial), some with size runs along a row or column, some with unavailable items.
  static func declaration(_ rng: inout SplitMix64) -> VirtualItems {
    let count = rng.int(1...300)
    let arrangement: VirtualArrangement =
      switch rng.int(0...2) {
      case 0: .row
      case 1: .column
      default: .grid(columns: rng.int(1...25))
      }
    var sizes: SizeRuns?
    if arrangement == .row || arrangement == .column, rng.chance(0.4) {
      var runs: [SizeRun] = []
      var left = count
      while left > 0 {
        let run = rng.int(1...left)
        runs.append(SizeRun(count: run, length: Double(rng.int(5...200))))
        left -= run
      }
      sizes = SizeRuns(runs)
    }
    var content: [Int: VirtualContent] = [:]
    if rng.chance(0.5) {
      for _ in 0..<rng.int(1...count) {
        content[rng.int(0...count - 1)] = VirtualContent(available: rng.chance(0.2))
      }
    }
    return VirtualItems(
      count: count, origin: Point(x: Double(rng.int(-300...300)), y: Double(rng.int(-300...300))),
      itemSize: Size(width: Double(rng.int(5...200)), height: Double(rng.int(5...200))),
      spacing: Size(width: Double(rng.int(0...40)), height: Double(rng.int(0...40))),
      arrangement: arrangement, content: content, sizes: sizes)
  }

  /// A source somewhere around a declaration's items, sometimes as wide or tall as a menu bar.
  static func rect(_ rng: inout SplitMix64) -> Rect {
    Rect(
      x: Double(rng.int(-600...4_000)), y: Double(rng.int(-600...4_000)),
      width: Double(rng.int(1...(rng.chance(0.3) ? 4_000 : 400))),
      height: Double(rng.int(1...(rng.chance(0.3) ? 4_000 : 400))))
  }
}
