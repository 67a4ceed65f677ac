/// The index arithmetic behind the searches over a virtual group: instead of visiting its
/// items, each search names the few cells that can win, and the caller scores them with the
/// same exact rules as listed items. So a move costs the same at 10 items and at 10⁹.
///
/// **Directional (tvOS).** Along the direction every line (a row for left/right, a column
/// for up/down) has one best cell: moving forward, the first slot that is a candidate
/// (distance and rank both grow with the slot); moving back, the last candidate slot, or the
/// first slot the source overlaps when that one is a candidate too (distance 0, lower rank).
/// Across the direction, the beam's lines score by the offset between centres, which is least
/// at the line nearest the source's centre: lines are tried outward from it, by that offset,
/// until one offers the least distance any line can (its best slot not an unavailable item
/// stepped over); a farther line can only lose to it. From a cell of the group that is the one
/// line of the beam; from a wider source past unavailable items, as many lines as it takes
/// (a menu bar above a grid whose nearest first-row items are unavailable).
///
/// **Per-index sizes** (``sizes``, a row or a column): the axis along the runs places its slots
/// by the runs' prefix sums, and its estimates come from a binary search over the runs
/// (O(log runs)); the same exact checks correct them. Centres still grow with the slot, so
/// the line nearest the source's centre and its neighbours still hold the best offset: a move
/// down from a programme of one EPG row lands on the programme of the next row that overlaps
/// it (the beam) and whose middle is nearest its middle.
extension VirtualItems {
  /// One axis of the arrangement: `count` slots from `origin`, `gap` apart; each `size` long
  /// (`pitch` = `size` + `gap` apart), or as long as `runs` say.
  struct Axis {
    var origin: Double
    var pitch: Double
    var size: Double
    var count: Int
    var gap: Double = 0
    var runs: SizeRuns? = nil

    func start(_ slot: Int) -> Double {
      guard let runs else { return origin + Double(slot) * pitch }
      return origin + runs.offset(of: slot, gap: gap)
    }
    func length(_ slot: Int) -> Double { runs?.length(of: slot) ?? size }
    func end(_ slot: Int) -> Double {
      guard let runs else { return origin + Double(slot) * pitch + size }
      let (start, length) = runs.span(of: slot, gap: gap)
      return origin + start + length
    }

    /// Where the first slot whose end lies past `value` is, roughly (for ``first(near:_:)``).
    func estimateEnd(_ value: Double) -> Double {
      guard let runs else { return (value - origin - size) / pitch }
      return runs.slot(at: value - origin, gap: gap).rounded(.down)
    }

    /// Where the first slot whose start lies at or past `value` is, roughly.
    func estimateStart(_ value: Double) -> Double {
      guard let runs else { return (value - origin) / pitch }
      return runs.slot(at: value - origin, gap: gap).rounded(.down)
    }

    /// The first slot in `0...count` where `holds` is true (`count` if none), for a
    /// predicate that is false up to some slot and true from there on; `estimate` is where
    /// the arithmetic puts the switch, corrected by exact checks (a step or two).
    func first(near estimate: Double, _ holds: (Int) -> Bool) -> Int {
      let clamped = estimate.isFinite ? min(max(estimate.rounded(.down), 0), Double(count)) : 0
      var slot = Int(clamped)
      while slot > 0 && holds(slot - 1) { slot -= 1 }
      while slot < count && !holds(slot) { slot += 1 }
      return slot
    }

    /// The slot whose centre is nearest `value` (clamped to the slots).
    func nearest(to value: Double) -> Int {
      let last = Double(max(count - 1, 0))
      guard runs != nil else {
        let estimate = ((value - origin - size / 2) / pitch).rounded()
        return Int(min(max(estimate.isFinite ? estimate : 0, 0), last))
      }
      // Centres grow with the slot: the nearest is the slot holding `value` or a neighbour.
      let holding = Int(min(estimateStart(value), last))
      var best = holding
      var distance = Double.infinity
      for slot in max(holding - 1, 0)...min(holding + 1, count - 1) {
        let centre = (start(slot) + end(slot)) / 2
        if abs(centre - value) < distance { (best, distance) = (slot, abs(centre - value)) }
      }
      return best
    }
  }

  var columnAxis: Axis {
    Axis(
      origin: origin.x, pitch: itemSize.width + spacing.width, size: itemSize.width,
      count: min(count, columns), gap: spacing.width, runs: arrangement == .row ? sizes : nil)
  }
  var rowAxis: Axis {
    Axis(
      origin: origin.y, pitch: itemSize.height + spacing.height, size: itemSize.height,
      count: rows, gap: spacing.height, runs: arrangement == .column ? sizes : nil)
  }

  /// Calls `body` with the indices of the cells that can win a tvOS move from `source`
  /// (content space) in `direction`; some may repeat. O(1) from a cell of the group or when
  /// the lines nearest the source's centre hold available candidates; O(lines of the beam)
  /// at worst.
  func forEachSearchCell(from source: Rect, _ direction: Direction, _ body: (Int) -> Void) {
    guard count > 0 else { return }
    let horizontal = direction == .left || direction == .right
    let major = horizontal ? columnAxis : rowAxis
    let minor = horizontal ? rowAxis : columnAxis
    let (sMin, sMax) = horizontal ? (source.minX, source.maxX) : (source.minY, source.maxY)
    let (bMin, bMax) = horizontal ? (source.minY, source.maxY) : (source.minX, source.maxX)
    // The beam: lines whose range overlaps the source's strictly.
    func beam() -> (low: Int, high: Int)? {
      let low = minor.first(near: minor.estimateEnd(bMin)) { minor.end($0) > bMin }
      let high = minor.first(near: minor.estimateStart(bMax)) { minor.start($0) >= bMax } - 1
      return low <= high ? (low, high) : nil
    }
    // The cheaper axis first (the one without size runs): a group wholly outside the beam, or
    // wholly behind the move, costs one check (an EPG's other channel rows).
    var lines: (low: Int, high: Int)?
    if major.runs != nil {
      lines = beam()
      guard lines != nil else { return }
    }
    let forward = direction == .right || direction == .down
    // Along the direction: for forward moves the first candidate slot; backward, the last
    // candidate slot and the first slot with distance 0.
    let firstAhead = major.first(near: major.estimateStart(sMin)) { slot in
      (sMin < major.start(slot) || sMax <= major.start(slot)) && sMax < major.end(slot)
    }
    let lastBehind =
      major.first(near: major.estimateStart(sMin)) { slot in
        !((sMax > major.end(slot) || sMin >= major.end(slot)) && sMin > major.start(slot))
      } - 1
    if forward ? firstAhead >= major.count : lastBehind < 0 { return }
    guard let (low, beamHigh) = lines ?? beam() else { return }
    let firstOverlapping = major.first(near: major.estimateEnd(sMin)) { major.end($0) >= sMin }
    // The grid's shape read once (`rows` and `columns` are computed), not per line visited.
    let width = columns
    let lastRow = (count - 1) / width
    let lastRowCount = count - lastRow * width
    // Moving down into a partial last row: the columns past it hold no cell.
    let high =
      !horizontal && forward && firstAhead == lastRow ? min(beamHigh, lastRowCount - 1) : beamHigh
    guard low <= high else { return }
    let middle = min(max(minor.nearest(to: (bMin + bMax) / 2), low), high)
    // Calls `body` with the line's best cells; true if one lies at the least distance any line
    // can offer (the slot the arithmetic names, no unavailable item stepped over).
    func visit(_ line: Int) -> Bool {
      // The last slot that exists on this line (the last row may be partial).
      let limit =
        horizontal
        ? (line == lastRow ? lastRowCount - 1 : min(count, width) - 1)
        : (line < lastRowCount ? lastRow : lastRow - 1)
      func cell(_ slot: Int) -> Int { horizontal ? line * width + slot : slot * width + line }
      // Unavailable items (supplied content) are stepped over: each step passes one of at
      // most `maximumContent` entries.
      func available(_ slot: Int) -> Bool { isAvailable(cell(slot)) }
      if forward {
        var slot = firstAhead
        while slot <= limit && !available(slot) { slot += 1 }
        guard slot <= limit else { return false }
        body(cell(slot))
        return slot == firstAhead
      }
      var last = min(lastBehind, limit)
      while last >= 0 && !available(last) { last -= 1 }
      guard last >= 0 else { return false }
      body(cell(last))
      var overlapping = firstOverlapping
      while overlapping < last && !available(overlapping) { overlapping += 1 }
      if overlapping < last { body(cell(overlapping)) }
      return last == lastBehind || last >= firstOverlapping
    }
    // Outward from the nearest line, in the order of the offset between centres (it grows on
    // either side), until a line offers the least distance: a farther line can only lose to
    // it. Without unavailable items that is the nearest line, or the nearest that exists; from
    // a cell of the group the beam is that one line. `visit` is written once so that it is
    // inlined once.
    let centre = (bMin + bMax) / 2
    func offset(_ line: Int) -> Double { abs((minor.start(line) + minor.end(line)) / 2 - centre) }
    var below = middle
    var above = middle + 1
    var best: Int?
    var closing = false
    while below >= low || above <= high {
      let takeBelow =
        above > high || (below >= low && (below == middle || offset(below) <= offset(above)))
      let line = takeBelow ? below : above
      // Past the best: the next line on either side too (an offset equal to the best's, with
      // a lower rank, may differ from it by rounding here), then stop.
      if !closing, let best, offset(line) > offset(best) { closing = true }
      if takeBelow { below -= 1 } else { above += 1 }
      if visit(line) && best == nil { best = line }
      if closing {
        if takeBelow { below = low - 1 } else { above = high + 1 }
      }
    }
  }

  /// Calls `body` with the indices of the cells that can be nearest to `frame` (content
  /// space) by the gap between rectangles, then the distance between centres: the nearest
  /// row and column, their neighbours, and the last item. O(1).
  func forEachCellNear(_ frame: Rect, _ body: (Int) -> Void) {
    guard count > 0 else { return }
    let row = rowAxis.nearest(to: frame.midY)
    let column = columnAxis.nearest(to: frame.midX)
    for r in (row - 1)...(row + 1) {
      for c in (column - 1)...(column + 1)
      where exists(row: r, column: c) && isAvailable(r * columns + c) {
        body(r * columns + c)
      }
    }
    if let last = lastAvailable(atOrBefore: count - 1) { body(last) }
  }

  /// The first item at or after `index` that its supplied content leaves available (nil: none).
  /// O(unavailable items passed).
  func firstAvailable(atOrAfter index: Int) -> Int? {
    var index = index
    while index < count && !isAvailable(index) { index += 1 }
    return index < count ? index : nil
  }

  /// The last item at or before `index` that its supplied content leaves available.
  func lastAvailable(atOrBefore index: Int) -> Int? {
    var index = index
    while index >= 0 && !isAvailable(index) { index -= 1 }
    return index >= 0 ? index : nil
  }
}

extension VirtualItems {
  /// The indices of the items that meet `window` (content space), row by row: what a renderer
  /// draws of the group. O(items in the window).
  public func indices(in window: Rect) -> [Int] {
    guard let region = region(in: window) else { return [] }
    var visible: [Int] = []
    visible.reserveCapacity(region.cellCount)
    for row in region.rows {
      for column in region.columns where exists(row: row, column: column) {
        visible.append(row * columns + column)
      }
    }
    return visible
  }
}
