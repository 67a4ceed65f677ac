/// A rectangle of a virtual group's cells: its rows and its columns (for a row arrangement,
/// row 0 and a range of columns; for a column, a range of rows and column 0).
public struct VirtualRegion: Sendable, Hashable {
  /// The rows, top to bottom.
  public var rows: Range<Int>
  /// The columns, leading to trailing.
  public var columns: Range<Int>

  /// A region.
  public init(rows: Range<Int>, columns: Range<Int>) {
    self.rows = rows
    self.columns = columns
  }

  /// How many cells it spans (some may not exist past the last item).
  public var cellCount: Int { rows.count * columns.count }

  /// Whether the item at `index` of a group `columns` wide lies inside. O(1).
  public func contains(_ index: Int, columns width: Int) -> Bool {
    rows.contains(index / width) && columns.contains(index % width)
  }

  /// Whether `other` lies inside.
  public func contains(_ other: VirtualRegion) -> Bool {
    other.rows.isEmpty || other.columns.isEmpty
      || (rows.lowerBound <= other.rows.lowerBound && other.rows.upperBound <= rows.upperBound
        && columns.lowerBound <= other.columns.lowerBound
        && other.columns.upperBound <= columns.upperBound)
  }

  /// The item indices of the region's cells that are not in `other` (nil: none are), one
  /// range per row, top to bottom, for a group of `count` items `width` columns wide.
  /// O(rows).
  public func ranges(excluding other: VirtualRegion?, columns width: Int, count: Int)
    -> [Range<Int>]
  {
    var result: [Range<Int>] = []
    result.reserveCapacity(min(rows.count, VirtualItems.maximumContent))
    // A row's columns, less `other`'s where it covers the row: at most two spans, appended as
    // they are (an array of spans per row cost most of a request of 24 rows).
    let cut = other?.columns.clamped(to: columns) ?? columns.lowerBound..<columns.lowerBound
    for row in rows {
      let base = row * width
      func append(_ span: Range<Int>) {
        guard !span.isEmpty else { return }
        let low = base + span.lowerBound
        let high = min(base + span.upperBound, count)
        if low < high { result.append(low..<high) }
      }
      if let other, other.rows.contains(row), !cut.isEmpty {
        append(columns.lowerBound..<cut.lowerBound)
        append(cut.upperBound..<columns.upperBound)
      } else {
        append(columns)
      }
    }
    return result
  }
}

extension VirtualItems {
  /// The cells that meet `window` (content space), nil when none does. O(1); O(log runs)
  /// with ``sizes``.
  public func region(in window: Rect) -> VirtualRegion? {
    guard count > 0 else { return nil }
    let rowsAxis = rowAxis
    let columnsAxis = columnAxis
    let firstRow = rowsAxis.first(near: rowsAxis.estimateEnd(window.minY)) {
      rowsAxis.end($0) > window.minY
    }
    let endRow = rowsAxis.first(near: rowsAxis.estimateStart(window.maxY)) {
      rowsAxis.start($0) >= window.maxY
    }
    let firstColumn = columnsAxis.first(near: columnsAxis.estimateEnd(window.minX)) {
      columnsAxis.end($0) > window.minX
    }
    let endColumn = columnsAxis.first(near: columnsAxis.estimateStart(window.maxX)) {
      columnsAxis.start($0) >= window.maxX
    }
    guard firstRow < endRow, firstColumn < endColumn else { return nil }
    return VirtualRegion(rows: firstRow..<endRow, columns: firstColumn..<endColumn)
  }

  /// The region an app is asked to fill around `visible`: one window more on each side
  /// (clamped to the items), shrunk so that it never spans more than ``maximumContent``
  /// cells. `fraction` of the margin (1: all of it; 0.5: the half that must stay covered).
  public func wanted(around visible: VirtualRegion, fraction: Double = 1) -> VirtualRegion {
    let width = min(count, columns)
    var marginRows = rows > 1 ? visible.rows.count : 0
    var marginColumns = width > 1 ? visible.columns.count : 0
    func grown(_ rowMargin: Int, _ columnMargin: Int) -> VirtualRegion {
      let r = Int((Double(rowMargin) * fraction).rounded(.up))
      let c = Int((Double(columnMargin) * fraction).rounded(.up))
      return VirtualRegion(
        rows: max(0, visible.rows.lowerBound - r)..<min(rows, visible.rows.upperBound + r),
        columns: max(
          0, visible.columns.lowerBound - c)..<min(
            width, visible.columns.upperBound + c))
    }
    var region = grown(marginRows, marginColumns)
    while region.cellCount > Self.maximumContent, marginRows + marginColumns > 0 {
      marginRows /= 2
      marginColumns /= 2
      region = grown(marginRows, marginColumns)
    }
    if region.cellCount > Self.maximumContent {
      // Even the window is larger than the bound: its first cells only.
      let columnCount = min(region.columns.count, Self.maximumContent)
      let rowCount = max(1, Self.maximumContent / columnCount)
      region = VirtualRegion(
        rows: region.rows.lowerBound..<region.rows.lowerBound + min(region.rows.count, rowCount),
        columns: region.columns.lowerBound..<region.columns.lowerBound + columnCount)
    }
    return region
  }
}

extension Group {
  /// What of this group's content is in view, in its own content space: `outer` (what of the
  /// parent's content is in view; nil: no viewport around it bounds it) cut to this group's
  /// viewport, moved by its scroll `offset`. A virtual group inside a scrolling group (the rows
  /// of an EPG in one guide that scrolls them together) so sees what its ancestors show.
  public func view(inside outer: Rect?, offset: Point) -> Rect? {
    var view = outer
    if let viewport { view = view.map { $0.intersection(viewport) } ?? viewport }
    return view.map {
      Rect(x: $0.x + offset.x, y: $0.y + offset.y, width: $0.width, height: $0.height)
    }
  }
}
