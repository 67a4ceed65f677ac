/// A uniform grid over item frames, so the tvOS directional search visits only the cells in
/// the beam, nearest first, and stops once no unvisited cell can beat the best candidate.
///
/// One grid per scroll domain (the items that share a scroll offset), in that domain's
/// unscrolled content space. Cells are stored flat (compressed rows: `cellStart` and
/// `cellItems`), so a query allocates nothing. An item overlapping several cells is listed in
/// each; visiting it twice is harmless because the search's order is total.
///
/// - Complexity: a query visits the beam's cells up to the winner's distance: about
///   O(√n) for a grid-like layout, against O(n) for a scan.
struct SpatialIndex: Sendable, Equatable {
  /// The bounding box of the indexed frames.
  private(set) var bounds: Rect
  private var cellWidth: Double
  private var cellHeight: Double
  private(set) var columns: Int
  private(set) var rows: Int
  private var cellStart: [Int32]
  private var cellItems: [Int32]

  /// An index of nothing.
  init() {
    bounds = Rect(x: 0, y: 0, width: 0, height: 0)
    cellWidth = 1
    cellHeight = 1
    columns = 0
    rows = 0
    cellStart = [0]
    cellItems = []
  }

  /// Indexes `members` (item indices) by their `frames`.
  init(frames: [Rect], members: [Int]) {
    self.init()
    guard let first = members.first else { return }
    var box = frames[first]
    var totalWidth = 0.0
    var totalHeight = 0.0
    for member in members {
      let frame = frames[member]
      box = box.union(frame)
      totalWidth += frame.width
      totalHeight += frame.height
    }
    bounds = box
    let count = Double(members.count)
    // Cells about the size of an average item, at most 512 a side.
    cellWidth = max(totalWidth / count, box.width / 512, 1)
    cellHeight = max(totalHeight / count, box.height / 512, 1)
    columns = max(1, Self.ceiling(box.width / cellWidth))
    rows = max(1, Self.ceiling(box.height / cellHeight))
    var counts = [Int32](repeating: 0, count: columns * rows + 1)
    for member in members {
      let (c0, c1, r0, r1) = cellRange(frames[member])
      for row in r0...r1 { for column in c0...c1 { counts[row * columns + column + 1] += 1 } }
    }
    for cell in 0..<(columns * rows) { counts[cell + 1] += counts[cell] }
    cellStart = counts
    var fill = counts
    cellItems = [Int32](repeating: 0, count: Int(counts[columns * rows]))
    for member in members {
      let (c0, c1, r0, r1) = cellRange(frames[member])
      for row in r0...r1 {
        for column in c0...c1 {
          let cell = row * columns + column
          cellItems[Int(fill[cell])] = Int32(member)
          fill[cell] += 1
        }
      }
    }
  }

  // `rounded(_:)` would pull in libm's `trunc`, which FocusEngine does not link (it has no
  // Foundation); these values are finite and small, so integer conversion does the job.
  private static func ceiling(_ value: Double) -> Int {
    let whole = Int(value)
    return Double(whole) < value ? whole + 1 : whole
  }

  /// The cell index for an offset from the grid's origin, clamped to `0..<limit`.
  private static func cell(_ offset: Double, _ size: Double, _ limit: Int) -> Int {
    let value = offset / size
    guard value > 0 else { return 0 }
    guard value < Double(limit) else { return limit - 1 }
    return Int(value)  // Truncation is floor for positive values.
  }

  func column(_ x: Double) -> Int {
    Self.cell(x - bounds.minX, cellWidth, columns)
  }

  func row(_ y: Double) -> Int {
    Self.cell(y - bounds.minY, cellHeight, rows)
  }

  private func cellRange(_ frame: Rect) -> (Int, Int, Int, Int) {
    (column(frame.minX), column(frame.maxX), row(frame.minY), row(frame.maxY))
  }

  /// The least major distance from `source` (content space) to any indexed frame that can be
  /// a candidate in `direction` and lie in its beam, judged by the bounds alone; nil when none
  /// can. A search may skip the whole index when this exceeds its best distance.
  func beamFloor(of source: Rect, _ direction: Direction) -> Double? {
    guard columns > 0 else { return nil }
    switch direction {
    case .left, .right:
      guard source.maxY > bounds.minY, source.minY < bounds.maxY else { return nil }
    case .up, .down:
      guard source.maxX > bounds.minX, source.minX < bounds.maxX else { return nil }
    }
    switch direction {
    case .right: return bounds.maxX > source.maxX ? max(0, bounds.minX - source.maxX) : nil
    case .left: return bounds.minX < source.minX ? max(0, source.minX - bounds.maxX) : nil
    case .down: return bounds.maxY > source.maxY ? max(0, bounds.minY - source.maxY) : nil
    case .up: return bounds.minY < source.minY ? max(0, source.minY - bounds.maxY) : nil
    }
  }

  /// Calls `body` with every item in the cells of the beam of `source` (content space) that
  /// lie in `direction`, band by band outward. `body` gets the lower bound of the major
  /// distance for the band and returns false to stop.
  func forEachInBeam(
    of source: Rect, _ direction: Direction,
    _ body: (_ band: Double, _ items: ArraySlice<Int32>) -> Bool
  ) {
    guard columns > 0 else { return }
    switch direction {
    case .left, .right:
      guard source.maxY > bounds.minY, source.minY < bounds.maxY else { return }
      let r0 = row(source.minY)
      let r1 = row(source.maxY)
      let start = column(direction == .right ? source.minX : source.maxX)
      let stride = direction == .right ? 1 : -1
      var column = start
      while column >= 0 && column < columns {
        let band: Double
        if column == start {
          band = 0
        } else if direction == .right {
          band = max(0, bounds.minX + Double(column) * cellWidth - source.maxX)
        } else {
          band = max(0, source.minX - (bounds.minX + Double(column + 1) * cellWidth))
        }
        for row in r0...r1 {
          let cell = row * columns + column
          let slice = cellItems[Int(cellStart[cell])..<Int(cellStart[cell + 1])]
          if !body(band, slice) { return }
        }
        column += stride
      }
    case .up, .down:
      guard source.maxX > bounds.minX, source.minX < bounds.maxX else { return }
      let c0 = column(source.minX)
      let c1 = column(source.maxX)
      let start = row(direction == .down ? source.minY : source.maxY)
      let stride = direction == .down ? 1 : -1
      var row = start
      while row >= 0 && row < rows {
        let band: Double
        if row == start {
          band = 0
        } else if direction == .down {
          band = max(0, bounds.minY + Double(row) * cellHeight - source.maxY)
        } else {
          band = max(0, source.minY - (bounds.minY + Double(row + 1) * cellHeight))
        }
        for column in c0...c1 {
          let cell = row * columns + column
          let slice = cellItems[Int(cellStart[cell])..<Int(cellStart[cell + 1])]
          if !body(band, slice) { return }
        }
        row += stride
      }
    }
  }

  /// The cells ``forEachInBeam(of:_:_:)`` visits, in its order, with the same bands: as a
  /// sequence, so a search loops over them instead of passing a closure. A closure that reads
  /// the focus state makes the search copy the whole state for it (about 1,100 instructions
  /// to copy and 800 to destroy per move); a loop reads it in place.
  func beam(of source: Rect, _ direction: Direction) -> Beam {
    Beam(self, source, direction)
  }

  /// The cells of a beam, band by band outward (see ``beam(of:_:)``).
  struct Beam: Sequence, IteratorProtocol {
    private let index: SpatialIndex
    private let source: Rect
    private let direction: Direction
    /// The cells across the beam (rows for left and right, columns for up and down).
    private let across: ClosedRange<Int>
    /// The first band's row or column, the step outward, and the current one.
    private let start: Int
    private let stride: Int
    private var along: Int
    /// The next cell across in the current band; nil when the beam is done.
    private var cross: Int?

    fileprivate init(_ index: SpatialIndex, _ source: Rect, _ direction: Direction) {
      self.index = index
      self.source = source
      self.direction = direction
      let bounds = index.bounds
      let horizontal = direction == .left || direction == .right
      let inBeam =
        index.columns > 0
        && (horizontal
          ? source.maxY > bounds.minY && source.minY < bounds.maxY
          : source.maxX > bounds.minX && source.minX < bounds.maxX)
      switch direction {
      case .left, .right:
        across = inBeam ? index.row(source.minY)...index.row(source.maxY) : 0...0
        start = inBeam ? index.column(direction == .right ? source.minX : source.maxX) : 0
      case .up, .down:
        across = inBeam ? index.column(source.minX)...index.column(source.maxX) : 0...0
        start = inBeam ? index.row(direction == .down ? source.minY : source.maxY) : 0
      }
      stride = direction == .right || direction == .down ? 1 : -1
      along = start
      cross = inBeam ? across.lowerBound : nil
    }

    mutating func next() -> (band: Double, items: ArraySlice<Int32>)? {
      guard let cross else { return nil }
      let horizontal = direction == .left || direction == .right
      let count = horizontal ? index.columns : index.rows
      guard along >= 0 && along < count else {
        self.cross = nil
        return nil
      }
      let cell = horizontal ? cross * index.columns + along : along * index.columns + cross
      let band = self.band
      if cross < across.upperBound {
        self.cross = cross + 1
      } else {
        self.cross = across.lowerBound
        along += stride
      }
      return (band, index.cellItems[Int(index.cellStart[cell])..<Int(index.cellStart[cell + 1])])
    }

    /// The lower bound of the major distance for the current row or column.
    private var band: Double {
      if along == start { return 0 }
      let bounds = index.bounds
      switch direction {
      case .right: return Swift.max(0, bounds.minX + Double(along) * index.cellWidth - source.maxX)
      case .left:
        return Swift.max(0, source.minX - (bounds.minX + Double(along + 1) * index.cellWidth))
      case .down: return Swift.max(0, bounds.minY + Double(along) * index.cellHeight - source.maxY)
      case .up:
        return Swift.max(0, source.minY - (bounds.minY + Double(along + 1) * index.cellHeight))
      }
    }
  }

  /// Calls `body` with the items of every cell that `area` (content space) overlaps; an item
  /// may come more than once. Nothing when `area` misses the indexed bounds.
  ///
  /// - Complexity: the cells under `area`: O(1) for a pointer's hit region.
  func forEach(in area: Rect, _ body: (ArraySlice<Int32>) -> Void) {
    guard columns > 0, area.maxX >= bounds.minX, area.minX <= bounds.maxX,
      area.maxY >= bounds.minY, area.minY <= bounds.maxY
    else { return }
    let (c0, c1, r0, r1) = cellRange(area)
    for row in r0...r1 {
      for column in c0...c1 {
        let cell = row * columns + column
        body(cellItems[Int(cellStart[cell])..<Int(cellStart[cell + 1])])
      }
    }
  }
}

/// The spatial index of one scroll domain: the items whose innermost scrolling group is
/// `domain` (-1: no scrolling group), in that domain's content space.
struct DomainGrid: Sendable, Equatable {
  /// The innermost scrolling group around the items, or -1.
  var domain: Int
  /// Their index.
  var grid: SpatialIndex
}
