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
/// **Android** (`FocusFinder.findNextFocusInAbsoluteDirection`, AOSP): the same
/// `isCandidate` and strict `beamsOverlap`; `beamBeats` prefers a candidate in the beam over
/// one outside it (for up/down only unless the outside one is entirely closer); otherwise the
/// smaller `13·major² + minor²` wins, major between the facing edges, minor between the
/// centres; ties keep the earlier item in reading order.
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

  /// Android's `majorAxisDistanceToFarEdge`: to the destination's far edge, at least 1.
  public static func majorDistanceToFarEdge(
    _ source: Rect, _ destination: Rect, _ direction: Direction
  ) -> Double {
    let raw =
      switch direction {
      case .left: source.minX - destination.minX
      case .right: destination.maxX - source.maxX
      case .up: source.minY - destination.minY
      case .down: destination.maxY - source.maxY
      }
    return max(1, raw)
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

  /// Android's `isToDirectionOf`: the destination lies entirely beyond the source's edge.
  static func isToDirectionOf(_ source: Rect, _ destination: Rect, _ direction: Direction)
    -> Bool
  {
    switch direction {
    case .left: source.minX >= destination.maxX
    case .right: source.maxX <= destination.minX
    case .up: source.minY >= destination.maxY
    case .down: source.maxY <= destination.minY
    }
  }

  /// Android's `beamBeats`: whether `first` beats `second` by beam membership alone.
  public static func beamBeats(
    _ source: Rect, _ first: Rect, _ second: Rect, _ direction: Direction
  ) -> Bool {
    let firstInBeam = beamsOverlap(source, first, direction)
    let secondInBeam = beamsOverlap(source, second, direction)
    if secondInBeam || !firstInBeam { return false }
    if !isToDirectionOf(source, second, direction) { return true }
    if direction == .left || direction == .right { return true }
    return majorDistance(source, first, direction)
      < majorDistanceToFarEdge(source, second, direction)
  }

  /// Android's weighted distance, `13·major² + minor²`.
  public static func weightedDistance(_ source: Rect, _ destination: Rect, _ direction: Direction)
    -> Double
  {
    let major = majorDistance(source, destination, direction)
    let minor = minorOffset(source, destination, direction)
    return 13 * major * major + minor * minor
  }

  /// Android's `isBetterCandidate`: whether `candidate` beats `best` (nil: no best yet).
  public static func androidBeats(
    _ source: Rect, _ candidate: Rect, _ best: Rect?, _ direction: Direction
  ) -> Bool {
    guard isCandidate(source, candidate, direction) else { return false }
    guard let best, isCandidate(source, best, direction) else { return true }
    if beamBeats(source, candidate, best, direction) { return true }
    if beamBeats(source, best, candidate, direction) { return false }
    return weightedDistance(source, candidate, direction)
      < weightedDistance(source, best, direction)
  }
}

/// What a directional search found: an item or a focus guide (indices into the layout).
enum SearchHit: Equatable {
  case item(Int)
  case guide(Int)
}

extension FocusState {
  /// Where a directional move from the item at `position` would put focus, or nil: the raw
  /// search winner, resolved through guides and group memory.
  func moveDestination(from position: Int, _ direction: Direction) -> Int? {
    let source = presentedFrame(at: position)
    let scope = trapScope(ofItem: position)
    let model = searchModel(forItem: position)
    var skippedGuides: [Int] = []
    while let hit = search(
      from: source, excluding: position, scope: scope, model: model, direction,
      skippingGuides: skippedGuides)
    {
      switch hit {
      case .item(let target):
        return remembered(entering: target, from: position, scope: scope) ?? target
      case .guide(let guide):
        if let target = resolveGuide(guide, scope: scope, avoiding: position) {
          return target
        }
        skippedGuides.append(guide)  // Nothing focusable behind it: search past it.
      }
    }
    return nil
  }

  /// The search winner among focusable items in `scope` and enabled guides.
  func search(
    from source: Rect, excluding excluded: Int?, scope: Int, model: SearchModel,
    _ direction: Direction, skippingGuides: [Int] = []
  ) -> SearchHit? {
    switch model {
    case .tvos:
      return tvosSearch(from: source, excluding: excluded, scope: scope, direction, skippingGuides)
    case .android:
      return androidSearch(
        from: source, excluding: excluded, scope: scope, direction, skippingGuides)
    }
  }

  private func guideIsCandidate(_ guide: Int, scope: Int, skipping: [Int]) -> Bool {
    layout.guides[guide].enabled && !skipping.contains(guide)
      && (scope < 0
        ? true
        : index.guideGroup[guide] >= 0
          && index.contains(group: scope, group: index.guideGroup[guide]))
  }

  func presentedFrame(ofGuide guide: Int) -> Rect {
    let frame = layout.guides[guide].frame
    let group = index.guideGroup[guide]
    guard group >= 0 else { return frame }
    return frame.offsetBy(dx: -shift[group].x, dy: -shift[group].y)
  }

  private func tvosSearch(
    from source: Rect, excluding excluded: Int?, scope: Int, _ direction: Direction,
    _ skipping: [Int]
  ) -> SearchHit? {
    // (distance, offset, rank): lexicographic, so the result does not depend on visit order.
    var best: (distance: Double, offset: Double, rank: Int, hit: SearchHit)?
    func consider(_ frame: Rect, rank: Int, _ hit: SearchHit) {
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
    forEachGrid { grid, shift in
      // Search in the grid's content space: the distances do not change under translation.
      let local = source.offsetBy(dx: shift.x, dy: shift.y)
      grid.forEachInBeam(of: local, direction) { band, members in
        if let best, band > best.distance { return false }
        for member in members {
          let position = Int(member)
          guard position != excluded, index.focusable[position],
            index.contains(group: scope, item: position)
          else { continue }
          consider(
            layout.items[position].frame.offsetBy(dx: -shift.x, dy: -shift.y),
            rank: index.rank[position], .item(position))
        }
        return true
      }
    }
    for guide in layout.guides.indices
    where guideIsCandidate(guide, scope: scope, skipping: skipping) {
      consider(presentedFrame(ofGuide: guide), rank: layout.items.count + guide, .guide(guide))
    }
    return best?.hit
  }

  private func androidSearch(
    from source: Rect, excluding excluded: Int?, scope: Int, _ direction: Direction,
    _ skipping: [Int]
  ) -> SearchHit? {
    // FocusFinder visits focusables in order and keeps the first of equals: reading order.
    var best: (frame: Rect, hit: SearchHit)?
    for position in index.readingOrder
    where position != excluded && index.focusable[position]
      && index.contains(group: scope, item: position)
    {
      let frame = presentedFrame(at: position)
      if FocusSearch.androidBeats(source, frame, best?.frame, direction) {
        best = (frame, .item(position))
      }
    }
    for guide in layout.guides.indices
    where guideIsCandidate(guide, scope: scope, skipping: skipping) {
      let frame = presentedFrame(ofGuide: guide)
      if FocusSearch.androidBeats(source, frame, best?.frame, direction) {
        best = (frame, .guide(guide))
      }
    }
    return best?.hit
  }

  /// A guide's first destination that resolves to a focusable item in scope, other than the
  /// item focus starts from.
  func resolveGuide(_ guide: Int, scope: Int, avoiding source: Int?) -> Int? {
    for destination in layout.guides[guide].destinations {
      if let position = index.itemIndex[destination] {
        if position != source, index.focusable[position],
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
    let group = index.itemGroup[target]
    guard group >= 0 else { return nil }
    var result: Int?
    for ancestor in index.ancestors(of: group) {
      if index.contains(group: ancestor, item: source) { break }  // Not entered: already in.
      let node = index.groupValues[ancestor]
      guard node.remembersLastFocused, let last = lastFocused[node.id],
        let position = index.itemIndex[last], index.focusable[position],
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
    let last = lastFocused[node.id]
    let end = group + index.nodes[group].subtreeCount
    var best: (priority: Int, rank: Int, position: Int)?
    for member in group..<end {
      for position in index.nodes[member].directItems
      where index.focusable[position] && index.contains(group: scope, item: position) {
        let priority = self.priority(of: position, last: last)
        if let current = best,
          current.priority > priority
            || (current.priority == priority && current.rank <= index.rank[position])
        {
          continue
        }
        best = (priority, index.rank[position], position)
      }
    }
    guard let best else { return nil }
    if best.priority > 0 { return best.position }
    if let preferred = node.preferredFocus {
      if let position = index.itemIndex[preferred], index.focusable[position],
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
    let id = layout.items[position].id
    let system: FocusPriority =
      id == focused ? .currentlyFocused : (id == last ? .previouslyFocused : .ignored)
    let custom = layout.items[position].priority ?? .ignored
    return max(system, custom).rawValue
  }

  /// The focusable item nearest to `frame` (presented space; gap between the rectangles, then
  /// distance between centres, then reading order) inside `scope`: where focus recovers.
  func nearest(to frame: Rect, scope: Int = -1) -> Int? {
    var best: (gap: Double, centre: Double, rank: Int, position: Int)?
    for position in layout.items.indices
    where index.focusable[position] && index.contains(group: scope, item: position) {
      let other = presentedFrame(at: position)
      let dx = max(0, max(other.minX - frame.maxX, frame.minX - other.maxX))
      let dy = max(0, max(other.minY - frame.maxY, frame.minY - other.maxY))
      let gap = dx * dx + dy * dy
      let cx = other.midX - frame.midX
      let cy = other.midY - frame.midY
      let centre = cx * cx + cy * cy
      let rank = index.rank[position]
      if let current = best,
        current.gap < gap || (current.gap == gap && current.centre < centre)
          || (current.gap == gap && current.centre == centre && current.rank <= rank)
      {
        continue
      }
      best = (gap, centre, rank, position)
    }
    return best?.position
  }

  /// The initial-focus rule: `initialFocus` if focusable, else the first focusable item in
  /// reading order.
  func initialFocus() -> String? {
    if let wanted = layout.initialFocus, isFocusable(wanted) { return wanted }
    return index.readingOrder.first { index.focusable[$0] }.map { layout.items[$0].id }
  }

  /// Where a directional move from `id` would put focus, or nil if nothing lies that way.
  public func destination(from id: String, _ direction: Direction) -> String? {
    guard let position = index.itemIndex[id] else { return nil }
    return moveDestination(from: position, direction).map { layout.items[$0].id }
  }
}
