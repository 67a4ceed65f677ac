/// Scrolling: focus scrolls its groups to keep it in view, the pointer scrolls the group
/// under it, and each group's shift (the offsets of it and its scrolling ancestors) is kept
/// with them.
extension FocusState {
  /// Sets focus, remembers it in every enclosing group and scrolls it into view.
  mutating func focus(_ id: String?) {
    var ignored: [FocusEffect] = []
    focus(id, reportingScrolls: &ignored)
  }

  /// Sets focus as ``focus(_:)`` does and appends a ``FocusEffect/scrolled(group:offset:)``
  /// for each group it scrolled, in tree order (outermost first). Only the scrolled groups'
  /// subtrees have their shifts recomputed, so a move costs the depth of its groups and the
  /// size of what scrolled, not the number of groups in the layout.
  mutating func focus(_ id: String?, reportingScrolls effects: inout [FocusEffect]) {
    focused = id
    focusAt(focusedAt, reportingScrolls: &effects)
  }

  /// After focus was set to the item at `position` (``focused``): remembers it in every
  /// enclosing group and scrolls it into view, as ``focus(_:reportingScrolls:)`` does.
  mutating func focusAt(_ position: Int?, reportingScrolls effects: inout [FocusEffect]) {
    guard let id = focused, let position else { return }
    let group = index.groupOf(position)
    guard group >= 0 else { return }
    rememberedOwnAt[group] = id
    var outermost = -1
    let firstScroll = effects.count
    // The offsets of the scrolling groups passed so far (innermost first): they move the item
    // inside the content of every scrolling group further out.
    var inner = Point.zero
    for ancestor in index.ancestors(of: group) {
      // The id and axis only: a copy of the whole `Group` would retain each of its fields.
      let groupID = index.nodes[ancestor].id
      rememberedAt[ancestor] = id
      guard index.groupValues[ancestor].scroll != nil else { continue }
      if scrollIntoView(position, group: ancestor, inner: inner) {
        outermost = ancestor
        // Ancestors come innermost first: each outer one goes before those found so far.
        effects.insert(.scrolled(group: groupID, offset: ownOffset[ancestor]), at: firstScroll)
      }
      inner.x += ownOffset[ancestor].x
      inner.y += ownOffset[ancestor].y
    }
    if outermost >= 0 { updateShift(subtree: outermost) }
  }

  /// Moves group `group`'s offset so the item's frame, moved by the offsets `inner` of the
  /// scrolling groups inside this one, lies inside the viewport, `scrollMargin` from its edges
  /// where the content allows, clamped to the content's extent.
  private mutating func scrollIntoView(_ position: Int, group: Int, inner: Point) -> Bool {
    guard let axis = index.groupValues[group].scroll,
      let viewport = index.groupValues[group].viewport
    else { return false }
    let scrollMargin = index.groupValues[group].scrollMargin
    let groupID = index.nodes[group].id
    let frame = contentFrame(at: position).offsetBy(dx: -inner.x, dy: -inner.y)
    // Frames and viewport share the parent content space; the group's own offset is relative.
    let content = contentBounds(of: group)
    var offset = ownOffset[group]  // `scrollOffsets[groupID] ?? .zero`, by index.
    func fit(
      _ current: Double, _ minEdge: Double, _ maxEdge: Double, _ viewMin: Double,
      _ viewMax: Double, _ contentMin: Double, _ contentMax: Double
    ) -> Double {
      let margin = min(scrollMargin, max(0, (viewMax - viewMin - (maxEdge - minEdge)) / 2))
      var value = current
      if minEdge - value < viewMin + margin { value = minEdge - viewMin - margin }
      if maxEdge - value > viewMax - margin { value = maxEdge - viewMax + margin }
      let lowest = min(0, contentMin - viewMin)
      let highest = max(lowest, contentMax - viewMax)
      return min(max(value, lowest), highest)
    }
    if axis != .vertical {
      offset.x = fit(
        offset.x, frame.minX, frame.maxX, viewport.minX, viewport.maxX, content.minX, content.maxX)
    }
    if axis != .horizontal {
      offset.y = fit(
        offset.y, frame.minY, frame.maxY, viewport.minY, viewport.maxY, content.minY, content.maxY)
    }
    guard offset != ownOffset[group] else { return false }
    scrollOffsets[groupID] = offset
    ownOffset[group] = offset
    return true
  }

  /// Scrolls group `group` by `delta` (a pointer's scroll), clamped to its content's extent
  /// as focus scrolling is; true if its offset changed.
  mutating func scroll(group: Int, by delta: Point) -> Bool {
    let node = index.groupValues[group]
    guard let axis = node.scroll, let viewport = node.viewport else { return false }
    let content = contentBounds(of: group)
    var offset = scrollOffsets[node.id] ?? .zero
    func clamp(_ value: Double, _ viewMin: Double, _ viewMax: Double, _ low: Double, _ high: Double)
      -> Double
    {
      let lowest = min(0, low - viewMin)
      let highest = max(lowest, high - viewMax)
      return min(max(value, lowest), highest)
    }
    if axis != .vertical {
      offset.x = clamp(offset.x + delta.x, viewport.minX, viewport.maxX, content.minX, content.maxX)
    }
    if axis != .horizontal {
      offset.y = clamp(offset.y + delta.y, viewport.minY, viewport.maxY, content.minY, content.maxY)
    }
    guard offset != ownOffset[group] else { return false }
    scrollOffsets[node.id] = offset
    ownOffset[group] = offset
    updateShift(subtree: group)
    return true
  }

  /// The bounding box of the items inside a group (content space).
  private func contentBounds(of group: Int) -> Rect {
    index.subtreeBounds[group] ?? index.groupValues[group].viewport
      ?? Rect(x: 0, y: 0, width: 0, height: 0)
  }

  mutating func rebuildShift() {
    ownOffset = index.nodes.map { scrollOffsets[$0.id] ?? .zero }
    shift = [Point](repeating: .zero, count: index.nodes.count)
    androidShift = [AndroidOffset](repeating: AndroidOffset(.zero), count: index.nodes.count)
    for group in index.nodes.indices where index.nodes[group].parent < 0 {
      updateShift(subtree: group)
    }
  }

  /// Recomputes `shift` and `androidShift` for `group` and the groups inside it (a contiguous
  /// range in pre-order, parents before children) after its offset changed.
  private mutating func updateShift(subtree group: Int) {
    for member in group..<(group + index.nodes[group].subtreeCount) {
      let parent = index.nodes[member].parent
      var total = parent >= 0 ? shift[parent] : .zero
      total.x += ownOffset[member].x
      total.y += ownOffset[member].y
      shift[member] = total
      androidShift[member] = AndroidOffset(total)
    }
  }
}
