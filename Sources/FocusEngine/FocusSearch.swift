/// The directional search: the geometry rules of both models, and the search over a state's
/// items and guides.
///
/// **tvOS (default).** A candidate lies further along the direction than the source (at
/// least partly beyond its leading edge: Android's `isCandidate`) and inside the beam (its
/// perpendicular range strictly overlaps the source's). The nearest wins, measured between
/// the facing edges (0 when they overlap); ties go to the smaller offset between the centres
/// on the other axis, then to reading order. This is a total order, so the grid search
/// (``SpatialIndex``) can stop as soon as no unvisited cell can beat the best.
///
/// **Android** (`FocusFinder.findNextFocusInAbsoluteDirection`, AOSP): exact, in integer
/// points and declaration order; see ``AndroidFocusFinder``.
///
/// **iPadOS navigation** (`navigation: ipados` on the layout or a group around the focused
/// item) confines either model to the focused item's own focus group: the group that holds
/// it directly (the root's ungrouped items form one), not its nested groups.
public enum FocusSearch {
  /// Android's `isCandidate`: the destination lies further along the direction.
  public static func isCandidate(_ source: Rect, _ destination: Rect, _ direction: Direction)
    -> Bool
  {
    switch direction {
    case .left:
      (source.maxX > destination.maxX || source.minX >= destination.maxX)
        && source.minX > destination.minX
    case .right:
      (source.minX < destination.minX || source.maxX <= destination.minX)
        && source.maxX < destination.maxX
    case .up:
      (source.maxY > destination.maxY || source.minY >= destination.maxY)
        && source.minY > destination.minY
    case .down:
      (source.minY < destination.minY || source.maxY <= destination.minY)
        && source.maxY < destination.maxY
    }
  }

  /// The perpendicular ranges overlap strictly (touching edges do not count).
  public static func beamsOverlap(_ source: Rect, _ destination: Rect, _ direction: Direction)
    -> Bool
  {
    switch direction {
    case .left, .right: destination.maxY > source.minY && destination.minY < source.maxY
    case .up, .down: destination.maxX > source.minX && destination.minX < source.maxX
    }
  }

  /// The gap between the facing edges along the direction, 0 when they overlap.
  public static func majorDistance(_ source: Rect, _ destination: Rect, _ direction: Direction)
    -> Double
  {
    max(0, majorDistanceRaw(source, destination, direction))
  }

  static func majorDistanceRaw(_ source: Rect, _ destination: Rect, _ direction: Direction)
    -> Double
  {
    switch direction {
    case .left: source.minX - destination.maxX
    case .right: destination.minX - source.maxX
    case .up: source.minY - destination.maxY
    case .down: destination.minY - source.maxY
    }
  }

  /// The offset between the centres across the direction.
  public static func minorOffset(_ source: Rect, _ destination: Rect, _ direction: Direction)
    -> Double
  {
    switch direction {
    case .left, .right: abs(destination.midY - source.midY)
    case .up, .down: abs(destination.midX - source.midX)
    }
  }
}

/// What a directional search found: an item or a focus guide (indices into the layout).
enum SearchHit: Equatable {
  case item(Int)
  case guide(Int)
}

/// The best tvOS candidate so far: ordered by (distance, offset, rank) lexicographically, so
/// the winner does not depend on the order candidates are considered in.
struct TVOSBest {
  /// The frame focus moves from (presented space).
  let source: Rect
  /// The move's direction.
  let direction: Direction
  private var best: (distance: Double, offset: Double, rank: Int, hit: SearchHit)?

  init(source: Rect, direction: Direction) {
    self.source = source
    self.direction = direction
  }

  /// The winner's major distance, nil while there is none.
  var distance: Double? { best?.distance }
  /// The winner.
  var hit: SearchHit? { best?.hit }

  /// Takes `frame` (presented space) as the winner if it is a candidate in the beam that
  /// beats the current one.
  @inline(__always)
  mutating func consider(_ frame: Rect, rank: Int, _ hit: SearchHit) {
    guard FocusSearch.isCandidate(source, frame, direction),
      FocusSearch.beamsOverlap(source, frame, direction)
    else { return }
    let distance = FocusSearch.majorDistance(source, frame, direction)
    let offset = FocusSearch.minorOffset(source, frame, direction)
    if let current = best {
      if current.distance < distance { return }
      if current.distance == distance {
        if current.offset < offset { return }
        if current.offset == offset && current.rank <= rank { return }
      }
    }
    best = (distance, offset, rank, hit)
  }
}

extension FocusState {
  /// Where a directional move from the item at `position` would put focus, or nil: the raw
  /// search winner, resolved through guides and group memory. In iPadOS navigation the move
  /// stays among the items of the source's own focus group.
  func moveDestination(from position: Int, _ direction: Direction) -> Int? {
    let source = presentedFrame(at: position)
    let scope = trapScope(ofItem: position)
    let model = searchModel(forItem: position)
    let confine =
      index.usesIPadNavigation && navigation(forItem: position) == .ipados
      ? index.groupOf(position) : nil
    var skippedGuides: [Int] = []
    while let hit = search(
      from: source, excluding: position, scope: scope, confine: confine, model: model,
      direction, skippingGuides: skippedGuides)
    {
      switch hit {
      case .item(let target):
        return remembered(entering: target, from: position, scope: scope) ?? target
      case .guide(let guide):
        if let target = resolveGuide(guide, scope: scope, avoiding: position),
          confine.map({ index.groupOf(target) == $0 }) ?? true
        {
          return target
        }
        skippedGuides.append(guide)  // Nothing focusable (in reach) behind it: search past it.
      }
    }
    return nil
  }

  /// The search winner among focusable items in `scope` and enabled guides; with `confine`,
  /// only among the items and guides directly in that group (-1: the root's ungrouped ones).
  func search(
    from source: Rect, excluding excluded: Int?, scope: Int, confine: Int? = nil,
    model: SearchModel, _ direction: Direction, skippingGuides: [Int] = []
  ) -> SearchHit? {
    let reach = SearchReach(excluded: excluded, scope: scope, confine: confine)
    switch model {
    case .tvos:
      return tvosSearch(from: source, reach, direction, skippingGuides)
    case .android:
      return androidSearch(from: source, reach, direction, skippingGuides)
    }
  }

  /// Which items and guides a search may return.
  struct SearchReach {
    /// The item focus moves from.
    var excluded: Int?
    /// The trapping group (-1: none).
    var scope: Int
    /// iPadOS navigation: the one group whose direct items are reachable.
    var confine: Int?
  }

  @inline(__always)
  func admits(_ position: Int, _ reach: SearchReach) -> Bool {
    guard position != reach.excluded, index.isFocusable(position),
      index.contains(group: reach.scope, item: position)
    else { return false }
    if let confine = reach.confine { return index.groupOf(position) == confine }
    return true
  }

  func guideIsCandidate(_ guide: Int, _ reach: SearchReach, skipping: [Int]) -> Bool {
    let group = index.guideGroup[guide]
    if let confine = reach.confine, group != confine { return false }
    return layout.guides[guide].enabled && !skipping.contains(guide)
      && (reach.scope < 0 ? true : group >= 0 && index.contains(group: reach.scope, group: group))
  }

  func presentedFrame(ofGuide guide: Int) -> Rect {
    let frame = layout.guides[guide].frame
    let group = index.guideGroup[guide]
    guard group >= 0 else { return frame }
    return frame.offsetBy(dx: -shift[group].x, dy: -shift[group].y)
  }

  private func tvosSearch(
    from source: Rect, _ reach: SearchReach, _ direction: Direction, _ skipping: [Int]
  ) -> SearchHit? {
    var best = TVOSBest(source: source, direction: direction)
    searchGrids(from: source, reach, direction, &best)
    forEachVirtualCandidate(from: source, reach, direction) { frame, position in
      best.consider(frame, rank: index.rankOf(position), .item(position))
    }
    for guide in layout.guides.indices where guideIsCandidate(guide, reach, skipping: skipping) {
      // Guides rank after every item, listed or virtual.
      best.consider(
        presentedFrame(ofGuide: guide), rank: Int.max - layout.guides.count + guide, .guide(guide))
    }
    return best.hit
  }

  /// Searches the scroll domains' grids nearest first, each in its own content space (the
  /// distances do not change under translation), skipping a grid whose bounds lie outside
  /// the beam or behind the source and stopping at the first whose bounds lie further than
  /// the best so far: a move looks into the few grids around it, not into every scrolling
  /// rail of the layout.
  ///
  /// - Complexity: O(d log d) arithmetic on the grids' bounds for d scroll domains, plus the
  ///   cells searched in the grids that can hold the winner.
  private func searchGrids(
    from source: Rect, _ reach: SearchReach, _ direction: Direction, _ best: inout TVOSBest
  ) {
    withUnsafeTemporaryAllocation(of: (floor: Double, slot: Int).self, capacity: grids.count) {
      order in
      var count = 0
      for slot in grids.indices {
        let shift = shift(ofDomain: grids[slot].domain)
        let local = source.offsetBy(dx: shift.x, dy: shift.y)
        guard let floor = grids[slot].grid.beamFloor(of: local, direction) else { continue }
        order[count] = (floor, slot)
        count += 1
      }
      var candidates = UnsafeMutableBufferPointer(rebasing: order[..<count])
      candidates.sort { ($0.floor, $0.slot) < ($1.floor, $1.slot) }
      for (floor, slot) in candidates {
        if let distance = best.distance, floor > distance { return }
        let shift = shift(ofDomain: grids[slot].domain)
        let local = source.offsetBy(dx: shift.x, dy: shift.y)
        // A loop, not `forEachInBeam`'s closure: the closure would copy the whole state.
        for (band, members) in grids[slot].grid.beam(of: local, direction) {
          if let distance = best.distance, band > distance { break }
          for member in members {
            let position = Int(member)
            guard admits(position, reach) else { continue }
            best.consider(
              layout.items[position].frame.offsetBy(dx: -shift.x, dy: -shift.y),
              rank: index.rankOf(position), .item(position))
          }
        }
      }
    }
  }

  /// A guide's first destination that resolves to a focusable item in scope, other than the
  /// item focus starts from.
  func resolveGuide(_ guide: Int, scope: Int, avoiding source: Int?) -> Int? {
    for destination in layout.guides[guide].destinations {
      if let position = index.position(of: destination) {
        if position != source, index.isFocusable(position),
          index.contains(group: scope, item: position)
        {
          return position
        }
      } else if let group = index.groupIndex[destination] {
        if index.contains(group: scope, group: group),
          let position = entryItem(ofGroup: group, scope: scope), position != source
        {
          return position
        }
      } else if let next = index.guideIndex[destination], layout.guides[next].enabled,
        let position = resolveGuide(next, scope: scope, avoiding: source)
      {
        return position  // Validation guarantees guide chains have no cycles.
      }
    }
    return nil
  }

  /// When a move enters a group that remembers its last focused item, that item instead of
  /// the geometric winner (the outermost such group entered wins).
  private func remembered(entering target: Int, from source: Int, scope: Int) -> Int? {
    let group = index.groupOf(target)
    guard group >= 0 else { return nil }
    var result: Int?
    for ancestor in index.ancestors(of: group) {
      if index.contains(group: ancestor, item: source) { break }  // Not entered: already in.
      // The flag only: a copy of the whole `Group` would retain each of its fields.
      guard index.groupValues[ancestor].remembersLastFocused, let last = rememberedAt[ancestor],
        let position = index.position(of: last), index.isFocusable(position),
        index.contains(group: ancestor, item: position),
        index.contains(group: scope, item: position)
      else { continue }
      result = position
    }
    return result
  }

  /// The primary item of a group: the focusable item of its subtree with the highest
  /// priority (currently focused: max; previously focused here: 1000; a custom priority only
  /// raises an item), ties by reading order. When no item has a priority above 0, the group's
  /// `preferredFocus` chain decides, then reading order.
  func entryItem(ofGroup group: Int, scope: Int) -> Int? {
    let node = index.groupValues[group]
    let last = rememberedAt[group]
    let end = group + index.nodes[group].subtreeCount
    var best: (priority: Int, rank: Int, position: Int)?
    for member in group..<end {
      for position in index.nodes[member].directItems
      where index.isFocusable(position) && index.contains(group: scope, item: position) {
        let priority = self.priority(of: position, last: last)
        if let current = best,
          current.priority > priority
            || (current.priority == priority && current.rank <= index.rankOf(position))
        {
          continue
        }
        best = (priority, index.rankOf(position), position)
      }
      if let entry = virtualEntry(ofGroup: member, scope: scope, last: last),
        best.map({ $0.priority < entry.priority }) ?? true
      {
        best = (entry.priority, index.rankOf(entry.position), entry.position)
      }
    }
    guard let best else { return nil }
    if best.priority > 0 { return best.position }
    if let preferred = node.preferredFocus {
      if let position = index.position(of: preferred), index.isFocusable(position),
        index.contains(group: scope, item: position)
      {
        return position
      }
      if let child = index.groupIndex[preferred], child != group,
        let position = entryItem(ofGroup: child, scope: scope)
      {
        return position
      }
    }
    return best.position
  }

  /// An item's effective focus-group priority: its system priority raised by its own.
  func priority(of position: Int, last: String?) -> Int {
    let id = itemID(at: position)
    let system: FocusPriority =
      id == focused ? .currentlyFocused : (id == last ? .previouslyFocused : .ignored)
    let custom = index.isVirtual(position) ? .ignored : layout.items[position].priority ?? .ignored
    return max(system, custom).rawValue
  }

  /// The focusable item nearest to `frame` (presented space; gap between the rectangles, then
  /// distance between centres, then reading order) inside `scope`: where focus recovers.
  func nearest(to frame: Rect, scope: Int = -1) -> Int? {
    var best: (gap: Double, centre: Double, rank: Int, position: Int)?
    func consider(_ position: Int) {
      let other = presentedFrame(at: position)
      let dx = max(0, max(other.minX - frame.maxX, frame.minX - other.maxX))
      let dy = max(0, max(other.minY - frame.maxY, frame.minY - other.maxY))
      let gap = dx * dx + dy * dy
      let cx = other.midX - frame.midX
      let cy = other.midY - frame.midY
      let centre = cx * cx + cy * cy
      let rank = index.rankOf(position)
      if let current = best,
        current.gap < gap || (current.gap == gap && current.centre < centre)
          || (current.gap == gap && current.centre == centre && current.rank <= rank)
      {
        return
      }
      best = (gap, centre, rank, position)
    }
    for position in layout.items.indices
    where index.isFocusable(position) && index.contains(group: scope, item: position) {
      consider(position)
    }
    forEachVirtualCell(near: frame, scope: scope, consider)
    return best?.position
  }

  /// The initial-focus rule: `initialFocus` if focusable, else the first focusable item in
  /// reading order.
  func initialFocus() -> String? {
    if let wanted = layout.initialFocus, isFocusable(wanted) { return wanted }
    if let listed = index.readingOrder.first(where: { index.isFocusable($0) }) {
      return itemID(at: listed)
    }
    for span in index.virtualSpans where span.focusable {
      if let first = span.items.firstAvailable(atOrAfter: 0) {
        return itemID(at: span.base + first)
      }
    }
    return nil
  }

  /// Where a directional move from `id` would put focus, or nil if nothing lies that way.
  public func destination(from id: String, _ direction: Direction) -> String? {
    guard let position = index.position(of: id) else { return nil }
    return moveDestination(from: position, direction).map { itemID(at: $0) }
  }
}
