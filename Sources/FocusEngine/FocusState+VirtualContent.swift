/// Content on demand: which items of each virtual group its app is asked to fill.
///
/// A group's **wanted region** is the window in view plus one window on each side (at most
/// ``VirtualItems/maximumContent`` cells). After every step the engine checks each virtual
/// group: while the window in view with half a window on each side still lies inside the
/// region the app was last asked for, nothing is said (the request is not repeated); else the
/// region moves to the new window and ``FocusEffect/itemsInView(group:range:)`` names the
/// cells the old one did not cover, one range per row. Supplied content outside the wanted
/// region is dropped when content is next set (``LayoutPatch/Operation/setVirtualContent(group:items:)``).
public struct VirtualWant: Sendable, Equatable {
  /// The declaration (without content) the region was computed for: a group declared anew
  /// (another count or geometry) is asked again from scratch.
  var shape: VirtualItems
  /// The cells the app was last asked for.
  public var region: VirtualRegion
}

extension FocusState {
  /// Whether the layout declares any virtual group.
  var hasVirtualGroups: Bool { !index.virtualSpans.isEmpty }

  /// A virtual group's view in its own content space, as screens draw it: the viewports of
  /// the group and the groups around it, each moved by its scroll offset
  /// (``Group/view(inside:offset:)``); the canvas when none has a viewport.
  func virtualView(ofGroup group: Int) -> Rect {
    groupView(group)
      ?? Rect(x: 0, y: 0, width: layout.canvas.width, height: layout.canvas.height)
  }

  /// What of a group's content the viewports around it show (nil: none bounds it).
  private func groupView(_ group: Int) -> Rect? {
    let parent = index.nodes[group].parent
    let outer = parent >= 0 ? groupView(parent) : nil
    // Not `let node = index.groupValues[group]`: that copy retains each of the group's fields.
    // `ownOffset` is `scrollOffsets` by index (no lookup by id).
    return index.groupValues[group].view(inside: outer, offset: ownOffset[group])
  }

  /// Moves the wanted region of every virtual group whose window left it, and returns the
  /// ``FocusEffect/itemsInView(group:range:)`` that ask for the newly wanted cells. Groups
  /// that are gone are forgotten. O(virtual groups + rows asked for).
  mutating func askForVirtualContent() -> [FocusEffect] {
    guard !index.virtualSpans.isEmpty || !virtualWanted.isEmpty else { return [] }
    if wantedBySpan.spans.isEmpty {
      guard wantedStillCovers else { return askForVirtualContentWhole() }
      noteWantedBySpan()
      return []
    }
    switch wantedBySpanCovers {
    case nil: return askForVirtualContentWhole()
    case true?: return []
    case false?:
      // Covered in another view: noted for the steps after this one.
      let views = index.virtualSpans.map { virtualView(ofGroup: $0.group) }
      for span in views.indices { wantedBySpan.spans[span].view = views[span] }
      return []
    }
  }

  /// ``wantedStillCovers`` read from ``wantedBySpan`` (which must be noted): each group's
  /// wanted region by its span, and its view compared with the last one found covered before
  /// any region is computed (a step that scrolled nothing computes none). Nil: not covered;
  /// true: covered, every view the one noted; false: covered, some view another. O(virtual
  /// groups).
  var wantedBySpanCovers: Bool? {
    var same = true
    for span in index.virtualSpans.indices {
      let view = virtualView(ofGroup: index.virtualSpans[span].group)
      if wantedBySpan.spans[span].view == view { continue }
      same = false
      if let visible = index.virtualSpans[span].items.region(in: view) {
        guard
          wantedBySpan.spans[span].region.contains(
            index.virtualSpans[span].items.wanted(around: visible, fraction: 0.5))
        else { return nil }
      }
    }
    return same
  }

  /// Notes ``wantedBySpan`` from ``virtualWanted`` when every virtual group has a wanted region
  /// for its shape and no other group has one (what ``wantedStillCovers`` asks first);
  /// otherwise leaves it forgotten. O(virtual groups).
  mutating func noteWantedBySpan() {
    guard virtualWanted.count == index.virtualSpans.count else { return }
    var spans: [WantedBySpan.Noted] = []
    spans.reserveCapacity(index.virtualSpans.count)
    for span in index.virtualSpans.indices {
      guard let want = virtualWanted.index(forKey: index.nodes[index.virtualSpans[span].group].id),
        index.virtualSpans[span].items.hasShape(virtualWanted.values[want].shape)
      else { return }
      spans.append(WantedBySpan.Noted(region: virtualWanted.values[want].region))
    }
    wantedBySpan = WantedBySpan(spans: spans)
  }

  /// ``askForVirtualContent()`` without its shortcut: every group's region computed and the
  /// table built again (`VirtualStepTests` holds the shortcut to it).
  mutating func askForVirtualContentWhole() -> [FocusEffect] {
    var effects: [FocusEffect] = []
    var wanted: [String: VirtualWant] = [:]
    for span in index.virtualSpans {
      let id = index.nodes[span.group].id
      let items = span.items
      let previous = virtualWanted[id].flatMap { $0.shape == items.shape ? $0 : nil }
      guard let visible = items.region(in: virtualView(ofGroup: span.group)) else {
        if let previous { wanted[id] = previous }
        continue
      }
      if let previous, previous.region.contains(items.wanted(around: visible, fraction: 0.5)) {
        wanted[id] = previous
        continue
      }
      let region = items.wanted(around: visible)
      wanted[id] = VirtualWant(shape: items.shape, region: region)
      for range in region.ranges(
        excluding: previous?.region, columns: items.columns, count: items.count)
      {
        effects.append(.itemsInView(group: id, range: range))
      }
    }
    virtualWanted = wanted
    noteWantedBySpan()
    return effects
  }

  /// Whether ``askForVirtualContent()`` would ask nothing and keep ``virtualWanted`` as it is:
  /// every virtual group has a wanted region for its shape whose inner half still holds its
  /// window in view (or it shows none), and no other group has one. Most steps are of this
  /// kind; checking it builds no table. O(virtual groups).
  private var wantedStillCovers: Bool {
    guard virtualWanted.count == index.virtualSpans.count else { return false }
    // Spans and wants read in place: a copy of either retains each of its fields.
    for span in index.virtualSpans.indices {
      let group = index.virtualSpans[span].group
      guard let want = virtualWanted.index(forKey: index.nodes[group].id),
        index.virtualSpans[span].items.hasShape(virtualWanted.values[want].shape)
      else { return false }
      guard let visible = index.virtualSpans[span].items.region(in: virtualView(ofGroup: group))
      else { continue }
      guard
        virtualWanted.values[want].region.contains(
          index.virtualSpans[span].items.wanted(around: visible, fraction: 0.5))
      else { return false }
    }
    return true
  }

  /// The ids of the virtual items whose supplied content makes them unavailable, by group in
  /// tree order, then index (at most ``VirtualItems/maximumContent`` per group).
  public var unavailableVirtualItems: [String] {
    var ids: [String] = []
    for span in index.virtualSpans where !span.items.content.isEmpty {
      let group = index.nodes[span.group].id
      for (item, content) in span.items.content.sorted(by: { $0.key < $1.key })
      where !content.available {
        ids.append(VirtualItems.id(group: group, index: item))
      }
    }
    return ids
  }

  /// Every virtual group's wanted region as ranges of indices, in the groups' tree order: what
  /// an app that joins (or resyncs) now is asked to fill.
  public var itemsInView: [VirtualRange] {
    var result: [VirtualRange] = []
    for span in index.virtualSpans {
      let id = index.nodes[span.group].id
      guard let want = virtualWanted[id] else { continue }
      for range in want.region.ranges(
        excluding: nil, columns: span.items.columns, count: span.items.count)
      {
        result.append(VirtualRange(group: id, range: range))
      }
    }
    return result
  }
}

/// ``FocusState/virtualWanted`` by virtual span (empty: forgotten, or some group lacks a
/// wanted region for its shape), with the view of each group last found inside its region's
/// inner half: what the check after each step reads instead of looking each group's want up
/// by id and comparing its shape. Derived, like the index's tables: it takes no part in a
/// state's equality. One array, so a copy of the state retains one buffer more.
struct WantedBySpan: Sendable, Equatable {
  /// One virtual span's wanted region and the view last found covered by it (nil: none yet).
  struct Noted: Sendable, Equatable {
    var region: VirtualRegion
    var view: Rect?
  }

  /// Per virtual span, in span order.
  var spans: [Noted] = []

  /// Forgets the regions (after `virtualWanted` or the index changed).
  mutating func forget() {
    if !spans.isEmpty { spans = [] }
  }

  /// Always equal: a cache of facts the state holds elsewhere.
  static func == (lhs: Self, rhs: Self) -> Bool { true }
}

/// Items `range` of virtual group `group`.
public struct VirtualRange: Sendable, Hashable {
  /// The virtual group's id.
  public var group: String
  /// The item indices.
  public var range: Range<Int>

  /// A range of a group's items.
  public init(group: String, range: Range<Int>) {
    self.group = group
    self.range = range
  }
}
