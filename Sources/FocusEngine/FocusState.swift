/// The focus state of one screen session: its layout, the focused item, a held select press
/// and the selected (toggled) items. Changed only by ``reduce(_:_:)``.
///
/// Display states are derived from these facts, never stored (see ``displayState(of:)``), so
/// they cannot disagree with them.
public struct FocusState: Sendable, Equatable {
  /// The current layout (validated).
  public private(set) var layout: Layout
  /// The focused item, or nil when nothing can take focus.
  public internal(set) var focused: String?
  /// The item the select button is held down on; only ever the focused item.
  public internal(set) var pressed: String?
  /// The ids of items whose selected flag is set.
  public internal(set) var selected: Set<String>
  /// Item id → index into `layout.items`.
  private var index: [String: Int]

  /// Validates `layout` and places focus by the initial-focus rule: `initialFocus` if it is
  /// available, else the first available item in reading (declaration) order, else none.
  public init(layout: Layout) throws(LayoutError) {
    try layout.validate()
    self.layout = layout
    self.index = Self.makeIndex(layout)
    self.selected = Set(layout.items.lazy.filter(\.selected).map(\.id))
    self.pressed = nil
    self.focused = nil
    self.focused = initialFocus()
  }

  /// The item with this id, if the layout has one.
  public func item(_ id: String) -> Item? {
    index[id].map { layout.items[$0] }
  }

  /// The display state of an item, or nil for an unknown id.
  ///
  /// Unavailable if it cannot take focus; highlighted while the select press is down on the
  /// focused item; focused; selected if its flag is set; otherwise unfocused.
  public func displayState(of id: String) -> FocusDisplayState? {
    guard let position = index[id] else { return nil }
    return displayState(of: layout.items[position])
  }

  /// The display state of every item, keyed by id.
  public func displayStates() -> [String: FocusDisplayState] {
    var states: [String: FocusDisplayState] = [:]
    states.reserveCapacity(layout.items.count)
    for item in layout.items { states[item.id] = displayState(of: item) }
    return states
  }

  /// Where a directional move from `id` would put focus, or nil if nothing lies that way.
  ///
  /// The tvOS rule: a candidate is available, lies further along `direction` than the source
  /// (at least partly beyond the source's leading edge in that direction: Android's
  /// `isCandidate`), and inside the beam (its perpendicular range strictly overlaps the
  /// source's). The nearest wins, measured between the facing edges (0 when they overlap);
  /// ties go to the smaller offset between the centres on the other axis, then to the earlier
  /// item in reading order. No allocation: one pass over the items.
  public func destination(from id: String, _ direction: Direction) -> String? {
    guard let source = item(id) else { return nil }
    return Self.search(in: layout, from: source.frame, excluding: id, direction)
  }

  /// The display state of an item of this layout (no id lookup: for walking `layout.items`).
  public func displayState(of item: Item) -> FocusDisplayState {
    if !item.available { return .unavailable }
    if item.id == focused { return item.id == pressed ? .highlighted : .focused }
    return selected.contains(item.id) ? .selected : .unfocused
  }

  // MARK: - Internals used by the reducer

  func initialFocus() -> String? {
    if let wanted = layout.initialFocus, item(wanted)?.available == true { return wanted }
    return layout.items.first(where: \.available)?.id
  }

  mutating func replace(_ newLayout: Layout) {
    let stillThere = Set(newLayout.items.lazy.map(\.id))
    selected = selected.intersection(stillThere)
      .union(newLayout.items.lazy.filter(\.selected).map(\.id))
    layout = newLayout
    index = Self.makeIndex(newLayout)
  }

  static func search(
    in layout: Layout, from source: Rect, excluding id: String?,
    _ direction: Direction
  ) -> String? {
    var best: (distance: Double, offset: Double, id: String)?
    for candidate in layout.items where candidate.available && candidate.id != id {
      let frame = candidate.frame
      guard isCandidate(source, frame, direction), beamsOverlap(source, frame, direction) else {
        continue
      }
      let distance = majorDistance(source, frame, direction)
      let offset = minorOffset(source, frame, direction)
      if let current = best,
        current.distance < distance || (current.distance == distance && current.offset <= offset)
      {
        continue  // Equal on both counts: the earlier item (already held) stays.
      }
      best = (distance, offset, candidate.id)
    }
    return best?.id
  }

  /// Android's `FocusFinder.isCandidate`: the destination lies further along the direction.
  static func isCandidate(_ source: Rect, _ destination: Rect, _ direction: Direction) -> Bool {
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
  static func beamsOverlap(_ source: Rect, _ destination: Rect, _ direction: Direction) -> Bool {
    switch direction {
    case .left, .right: destination.maxY > source.minY && destination.minY < source.maxY
    case .up, .down: destination.maxX > source.minX && destination.minX < source.maxX
    }
  }

  /// The gap between the facing edges along the direction, 0 when they overlap.
  static func majorDistance(_ source: Rect, _ destination: Rect, _ direction: Direction)
    -> Double
  {
    let gap =
      switch direction {
      case .left: source.minX - destination.maxX
      case .right: destination.minX - source.maxX
      case .up: source.minY - destination.maxY
      case .down: destination.minY - source.maxY
      }
    return max(0, gap)
  }

  /// The offset between the centres across the direction.
  static func minorOffset(_ source: Rect, _ destination: Rect, _ direction: Direction) -> Double {
    switch direction {
    case .left, .right: abs(destination.midY - source.midY)
    case .up, .down: abs(destination.midX - source.midX)
    }
  }

  /// The available item nearest to `frame` (gap between the rectangles, then distance between
  /// centres, then reading order): where focus recovers when its item vanishes.
  func nearest(to frame: Rect) -> String? {
    var best: (gap: Double, centre: Double, id: String)?
    for candidate in layout.items where candidate.available {
      let other = candidate.frame
      let dx = max(0, max(other.minX - frame.maxX, frame.minX - other.maxX))
      let dy = max(0, max(other.minY - frame.maxY, frame.minY - other.maxY))
      let gap = dx * dx + dy * dy
      let cx = other.midX - frame.midX
      let cy = other.midY - frame.midY
      let centre = cx * cx + cy * cy
      if let current = best, current.gap < gap || (current.gap == gap && current.centre <= centre) {
        continue
      }
      best = (gap, centre, candidate.id)
    }
    return best?.id
  }

  private static func makeIndex(_ layout: Layout) -> [String: Int] {
    var index: [String: Int] = [:]
    index.reserveCapacity(layout.items.count)
    for (position, item) in layout.items.enumerated() { index[item.id] = position }
    return index
  }
}
