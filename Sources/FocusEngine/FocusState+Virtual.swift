/// The focus rules over virtual groups (``VirtualItems``): each asks the group's index
/// arithmetic for the few cells that can win and scores them as it scores listed items.
extension FocusState {
  /// The virtual groups a search with `reach` may enter, with their scroll shift.
  func forEachReachableSpan(
    scope: Int, confine: Int?, _ body: (VirtualSpan, Point) -> Void
  ) {
    // By index: `for span in index.virtualSpans` would copy each span (and retain its fields).
    for span in index.virtualSpans.indices where index.virtualSpans[span].focusable {
      let group = index.virtualSpans[span].group
      guard index.contains(group: scope, group: group) else { continue }
      if let confine, confine != group { continue }
      body(index.virtualSpans[span], shift[group])
    }
  }

  /// Calls `body` with the presented frame and position of every virtual cell that can win a
  /// tvOS move from `source` (presented space). O(virtual groups).
  func forEachVirtualCandidate(
    from source: Rect, _ reach: SearchReach, _ direction: Direction,
    _ body: (Rect, Int) -> Void
  ) {
    forEachReachableSpan(scope: reach.scope, confine: reach.confine) { span, shift in
      let local = source.offsetBy(dx: shift.x, dy: shift.y)
      span.items.forEachSearchCell(from: local, direction) { item in
        let position = span.base + item
        guard position != reach.excluded else { return }
        body(span.items.frame(at: item).offsetBy(dx: -shift.x, dy: -shift.y), position)
      }
    }
  }

  /// Calls `body` with the positions of the virtual cells that can lie nearest to `frame`
  /// (presented space) inside `scope`. O(virtual groups).
  func forEachVirtualCell(near frame: Rect, scope: Int, _ body: (Int) -> Void) {
    forEachReachableSpan(scope: scope, confine: nil) { span, shift in
      span.items.forEachCellNear(frame.offsetBy(dx: shift.x, dy: shift.y)) { body(span.base + $0) }
    }
  }

  /// The primary item of a virtual group (nil for a listed group): the focused item if it is
  /// there, else the one focused there last (`last`), else item 0.
  func virtualEntry(ofGroup group: Int, scope: Int, last: String?) -> (
    priority: Int, position: Int
  )? {
    let spanIndex = index.nodes[group].virtual
    guard spanIndex >= 0 else { return nil }
    let span = index.virtualSpans[spanIndex]
    guard span.focusable, span.items.count > 0, index.contains(group: scope, group: group)
    else { return nil }
    for (candidate, priority) in [
      (focused, FocusPriority.currentlyFocused), (last, .previouslyFocused),
    ] {
      if let candidate, let position = index.position(of: candidate), index.isVirtual(position),
        index.groupOf(position) == group, index.isFocusable(position)
      {
        return (priority.rawValue, position)
      }
    }
    guard let first = span.items.firstAvailable(atOrAfter: 0) else { return nil }
    return (FocusPriority.ignored.rawValue, span.base + first)
  }

  /// The virtual item under `point` (presented space) by the pointer's rules: within the hit
  /// margin of its frame, shown by its scrolling groups; nearest, then first. O(groups).
  func virtualHit(_ point: Point, scope: Int, _ body: (Int, Rect, Double) -> Void) {
    let margin = layout.pointerHitMargin
    forEachReachableSpan(scope: scope, confine: nil) { span, shift in
      let local = Rect(x: point.x + shift.x, y: point.y + shift.y, width: 0, height: 0)
      span.items.forEachCellNear(local) { item in
        let frame = span.items.frame(at: item).offsetBy(dx: -shift.x, dy: -shift.y)
        let distance = Self.distance(from: point, to: frame)
        if distance <= margin { body(span.base + item, frame, distance) }
      }
    }
  }

  /// The virtual items a flick from `start` to `end` (presented space) could land on, with
  /// their frames' distance from `end`: every item whose hit region (its frame grown by the
  /// hit margin) the path crosses and that could be nearest `end`. Found by index arithmetic:
  /// the items around the last point of the path inside the group give a distance D, and
  /// only the items within D of `end` can do better, so those are the ones checked (when
  /// they are at most ``VirtualItems/maximumContent``; otherwise the first guess stands).
  /// O(groups + items within D).
  func virtualFlick(
    from start: Point, to end: Point, scope: Int, _ body: (Int, Double) -> Void
  ) {
    let margin = layout.pointerHitMargin
    forEachReachableSpan(scope: scope, confine: nil) { span, shift in
      guard let bounds = span.items.bounds else { return }
      let from = Point(x: start.x + shift.x, y: start.y + shift.y)
      let to = Point(x: end.x + shift.x, y: end.y + shift.y)
      let grown = Rect(
        x: bounds.minX - margin, y: bounds.minY - margin, width: bounds.width + 2 * margin,
        height: bounds.height + 2 * margin)
      guard let last = Self.lastPoint(from: from, to: to, inside: grown) else { return }
      var found: [Int: Double] = [:]
      func consider(_ item: Int) {
        let position = span.base + item
        guard found[item] == nil, index.isFocusable(position) else { return }
        let frame = span.items.frame(at: item)
        let region = Rect(
          x: frame.minX - margin, y: frame.minY - margin, width: frame.width + 2 * margin,
          height: frame.height + 2 * margin)
        guard Self.segment(from: from, to: to, crosses: region) else { return }
        found[item] = Self.distance(from: to, to: frame)
      }
      span.items.forEachCellNear(Rect(x: last.x, y: last.y, width: 0, height: 0), consider)
      if let reach = found.values.min(),
        let region = span.items.region(
          in: Rect(
            x: to.x - reach - 1, y: to.y - reach - 1, width: 2 * reach + 2, height: 2 * reach + 2)),
        region.cellCount <= VirtualItems.maximumContent
      {
        for row in region.rows {
          for column in region.columns where span.items.exists(row: row, column: column) {
            consider(row * span.items.columns + column)
          }
        }
      }
      for (item, distance) in found { body(span.base + item, distance) }
    }
  }

  /// The last point of the segment from `start` to `end` that lies inside `rect` (nil when
  /// the segment misses it): Liang–Barsky clipping.
  static func lastPoint(from start: Point, to end: Point, inside rect: Rect) -> Point? {
    var low = 0.0
    var high = 1.0
    let dx = end.x - start.x
    let dy = end.y - start.y
    for (p, q) in [
      (-dx, start.x - rect.minX), (dx, rect.maxX - start.x), (-dy, start.y - rect.minY),
      (dy, rect.maxY - start.y),
    ] {
      if p == 0 {
        if q < 0 { return nil }
      } else {
        let t = q / p
        if p < 0 { low = max(low, t) } else { high = min(high, t) }
        if low > high { return nil }
      }
    }
    return Point(x: start.x + high * dx, y: start.y + high * dy)
  }

  /// Focus recovery when a virtual group shrank below the focused index: its last available
  /// item, when the group is still virtual and holds any.
  func virtualRecovery(forID id: String) -> Int? {
    guard let (group, item) = VirtualItems.parse(id), let node = index.groupIndex[String(group)],
      index.nodes[node].virtual >= 0
    else { return nil }
    let span = index.virtualSpans[index.nodes[node].virtual]
    guard span.focusable, item >= span.items.count,
      let last = span.items.lastAvailable(atOrBefore: span.items.count - 1)
    else { return nil }
    return span.base + last
  }
}
