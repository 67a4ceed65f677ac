/// Tables derived once from a validated layout, so that every focus query is a lookup.
///
/// Groups are flattened in pre-order, so the subtree of group `g` is the index range
/// `g ..< g + groups[g].subtreeCount`, and "is item i inside group g" is two comparisons.
/// Built in O(n log n) (the reading-order sort); nothing here changes until the layout does.
struct LayoutIndex: Sendable, Equatable {
  /// One group of the tree.
  struct Node: Sendable, Equatable {
    /// The group's id.
    var id: String
    /// The parent group's index, or -1 for a top-level group.
    var parent: Int
    /// 1 for top-level groups.
    var depth: Int
    /// How many groups (this one included) its subtree holds.
    var subtreeCount: Int
    /// Indices of the items directly inside, in reading order.
    var directItems: [Int]
    /// Whether this group and all its ancestors are enabled.
    var enabled: Bool
    /// Index into `virtualSpans` when the group declares its items virtually, else -1.
    var virtual: Int = -1
    /// How many of `directItems` are focusable (kept with `focusable`, see ``focusPlace``).
    var focusableCount = 0
  }

  /// Item id → index into `layout.items`.
  var itemIndex: [String: Int] = [:]
  /// Group id → index into `nodes`.
  var groupIndex: [String: Int] = [:]
  /// Guide id → index into `layout.guides`.
  var guideIndex: [String: Int] = [:]
  /// The flattened group tree, in pre-order.
  var nodes: [Node] = []
  /// The groups in the layout's tree order: `nodes[i]` describes `groupValues[i]`.
  var groupValues: [Group] = []
  /// Per item: the index of the group directly containing it, or -1 for the root.
  var itemGroup: [Int] = []
  /// Per item: its rank in reading order (top to bottom, leading to trailing, declaration).
  var rank: [Int] = []
  /// Item indices in reading order.
  var readingOrder: [Int] = []
  /// Per item: available and in no disabled group. Whoever changes it recounts the items'
  /// groups (``recountFocusable(inGroup:)``), so that ``focusPlace`` follows.
  var focusable: [Bool] = []
  /// Per listed item: its 1-based place among the focusable items directly in its group (or
  /// among the root's ungrouped items) in reading order, 0 if it cannot take focus; with each
  /// group's ``Node/focusableCount`` and ``rootFocusableCount``, the spoken "4 of 12" is two
  /// loads instead of a scan of the group.
  var focusPlace: [Int] = []
  /// How many of `rootItems` are focusable.
  var rootFocusableCount = 0
  /// The items the layout declares selected (every layout change selects them again).
  var declaredSelected: [Int] = []
  /// Per guide: the group index it belongs to, or -1.
  var guideGroup: [Int] = []
  /// The Tab loop: stops in order; a stop is a group index with direct items, or -1 for the
  /// root's ungrouped items.
  var tabStops: [Int] = []
  /// Indices of the root's ungrouped items, in reading order.
  var rootItems: [Int] = []
  /// Per group: the bounding box of the item frames in its subtree (content space).
  var subtreeBounds: [Rect?] = []
  /// Whether the layout or any group asks for iPadOS navigation (else no move is confined).
  var usesIPadNavigation = false
  /// Whether any group has `revealOnPointer` (else the pointer's reveal check is skipped).
  var usesReveal = false
  /// How many items the layout lists: positions below are listed items, positions from here
  /// on are virtual items (``VirtualSpan``).
  var listedCount = 0
  /// The virtual groups, in tree order, with consecutive position ranges after the listed
  /// items.
  var virtualSpans: [VirtualSpan] = []

  init() {}

  init(_ layout: Layout) {
    let count = layout.items.count
    listedCount = count
    itemIndex.reserveCapacity(count)
    for (position, item) in layout.items.enumerated() { itemIndex[item.id] = position }
    itemGroup = [Int](repeating: -1, count: count)
    for group in layout.groups { flatten(group, parent: -1, depth: 1, enabled: true) }
    makeVirtualSpans()

    let rtl = layout.layoutDirection == .rtl
    readingOrder = Array(0..<count)
    let items = layout.items
    readingOrder.sort { a, b in
      let fa = items[a].frame
      let fb = items[b].frame
      if fa.minY != fb.minY { return fa.minY < fb.minY }
      let la = rtl ? -fa.maxX : fa.minX
      let lb = rtl ? -fb.maxX : fb.minX
      if la != lb { return la < lb }
      return a < b
    }
    rank = [Int](repeating: 0, count: count)
    for (position, item) in readingOrder.enumerated() { rank[item] = position }

    focusable = [Bool](repeating: false, count: count)
    usesReveal = groupValues.contains { $0.revealOnPointer }
    for position in items.indices {
      focusable[position] = baseFocusable(position, layout) && !hiddenUntilPointer(position)
      if items[position].selected { declaredSelected.append(position) }
    }
    for item in readingOrder {
      let group = itemGroup[item]
      if group < 0 {
        rootItems.append(item)
      } else {
        nodes[group].directItems.append(item)
      }
    }
    focusPlace = [Int](repeating: 0, count: count)
    recountFocusable()
    guideGroup = layout.guides.map { guide in guide.group.flatMap { groupIndex[$0] } ?? -1 }
    for (position, guide) in layout.guides.enumerated() { guideIndex[guide.id] = position }
    subtreeBounds = makeBounds(layout)
    usesIPadNavigation =
      layout.navigation == .ipados || groupValues.contains { $0.navigation == .ipados }
    tabStops = makeTabLoop(layout)
  }

  /// Recounts ``focusPlace`` and the focusable count of group `group`'s direct items (-1: the
  /// root's ungrouped items) from `focusable`. O(k) in the number of those items.
  mutating func recountFocusable(inGroup group: Int) {
    let members = group >= 0 ? nodes[group].directItems : rootItems
    var count = 0
    for member in members {
      if focusable[member] {
        count += 1
        focusPlace[member] = count
      } else {
        focusPlace[member] = 0
      }
    }
    if group >= 0 { nodes[group].focusableCount = count } else { rootFocusableCount = count }
  }

  /// Recounts every group's places (after `focusable` changed anywhere). O(n).
  mutating func recountFocusable() {
    recountFocusable(inGroup: -1)
    for group in nodes.indices { recountFocusable(inGroup: group) }
  }

  /// The item's place among the focusable items directly in its group and their count
  /// (``focusPlace``); nil for an item that cannot take focus. A listed item's only. O(1).
  func placeAmongFocusable(_ position: Int) -> (index: Int, count: Int)? {
    let place = focusPlace[position]
    guard place > 0 else { return nil }
    let group = itemGroup[position]
    return (place, group >= 0 ? nodes[group].focusableCount : rootFocusableCount)
  }

  /// Whether the item can take focus by the layout alone: available, not a label, in no
  /// disabled group (a `revealOnPointer` group may still hold it back).
  func baseFocusable(_ position: Int, _ layout: Layout) -> Bool {
    let item = layout.items[position]
    let group = itemGroup[position]
    return item.available && item.kind != .label && (group < 0 || nodes[group].enabled)
  }

  /// Whether a `revealOnPointer` group around the item holds it back (nothing is revealed
  /// when a layout is first indexed).
  private func hiddenUntilPointer(_ position: Int) -> Bool {
    guard usesReveal, itemGroup[position] >= 0 else { return false }
    return ancestors(of: itemGroup[position]).contains { groupValues[$0].revealOnPointer }
  }

  /// Bounding frame of every group subtree, computed bottom-up (children follow parents).
  private func makeBounds(_ layout: Layout) -> [Rect?] {
    var bounds = [Rect?](repeating: nil, count: nodes.count)
    for (position, item) in layout.items.enumerated() where itemGroup[position] >= 0 {
      let group = itemGroup[position]
      bounds[group] = bounds[group].map { $0.union(item.frame) } ?? item.frame
    }
    for span in virtualSpans {
      if let box = span.items.bounds {
        bounds[span.group] = bounds[span.group].map { $0.union(box) } ?? box
      }
    }
    for group in nodes.indices.reversed() {
      let parent = nodes[group].parent
      if parent >= 0, let own = bounds[group] {
        bounds[parent] = bounds[parent].map { $0.union(own) } ?? own
      }
    }
    return bounds
  }

  private mutating func flatten(_ group: Group, parent: Int, depth: Int, enabled: Bool) {
    let index = nodes.count
    let isEnabled = enabled && group.enabled
    groupIndex[group.id] = index
    nodes.append(
      Node(
        id: group.id, parent: parent, depth: depth, subtreeCount: 1, directItems: [],
        enabled: isEnabled))
    groupValues.append(group)
    for member in group.items {
      if let item = itemIndex[member] { itemGroup[item] = index }
    }
    for child in group.groups {
      flatten(child, parent: index, depth: depth + 1, enabled: isEnabled)
    }
    nodes[index].subtreeCount = nodes.count - index
  }

  /// Whether item `item` lies inside group `group`'s subtree (-1, the root, holds everything).
  func contains(group: Int, item: Int) -> Bool {
    guard group >= 0 else { return true }
    let owner = groupOf(item)
    return owner >= group && owner < group + nodes[group].subtreeCount
  }

  /// Whether group `inner` is `outer` or lies inside it.
  func contains(group outer: Int, group inner: Int) -> Bool {
    guard outer >= 0 else { return true }
    return inner >= outer && inner < outer + nodes[outer].subtreeCount
  }

  /// The group indices from `group` up to the top (innermost first).
  ///
  /// The sequence holds the node table only: one capturing the whole index (a closure over
  /// `self`) copied it, a retain and a release of every table, at each call, and a move makes
  /// several.
  func ancestors(of group: Int) -> Ancestors { Ancestors(nodes: nodes, current: group) }

  /// The group indices from one group up to the top (innermost first).
  struct Ancestors: Sequence, IteratorProtocol {
    /// The index's node table.
    let nodes: [Node]
    /// The next group to return, or -1 past the top.
    var current: Int

    mutating func next() -> Int? {
      guard current >= 0 else { return nil }
      defer { current = nodes[current].parent }
      return current
    }
  }

  /// The Tab loop order: at each level, the level's own ungrouped items (one stop) and its
  /// child groups are sorted by their bounding frames, top to bottom then leading to
  /// trailing; a group's subtree stays contiguous.
  private func makeTabLoop(_ layout: Layout) -> [Int] {
    let rtl = layout.layoutDirection == .rtl
    let bounds = subtreeBounds
    func ownBounds(_ level: Int, _ items: [Int]) -> Rect? {
      let listed = items.reduce(nil) { (box: Rect?, item: Int) in
        box.map { $0.union(layout.items[item].frame) } ?? layout.items[item].frame
      }
      guard level >= 0, nodes[level].virtual >= 0,
        let virtual = virtualSpans[nodes[level].virtual].items.bounds
      else { return listed }
      return listed.map { $0.union(virtual) } ?? virtual
    }
    func before(_ a: Rect, _ b: Rect) -> Bool {
      if a.minY != b.minY { return a.minY < b.minY }
      return rtl ? a.maxX > b.maxX : a.minX < b.minX
    }
    // An entry is (frame, own-items stop of group g, or child group g to recurse into).
    enum Entry { case own(Int), child(Int) }
    var loop: [Int] = []
    func walk(level: Int, ownItems: [Int], children: [Int]) {
      var entries: [(Rect, Int, Entry)] = []
      if let box = ownBounds(level, ownItems) { entries.append((box, -1, .own(level))) }
      for (order, child) in children.enumerated() {
        if let box = bounds[child] { entries.append((box, order, .child(child))) }
      }
      entries.sort { a, b in
        if before(a.0, b.0) { return true }
        if before(b.0, a.0) { return false }
        return a.1 < b.1
      }
      for (_, _, entry) in entries {
        switch entry {
        case .own(let group): loop.append(group)
        case .child(let group):
          walk(level: group, ownItems: nodes[group].directItems, children: childGroups(of: group))
        }
      }
    }
    walk(level: -1, ownItems: rootItems, children: childGroups(of: -1))
    return loop
  }

  /// The direct child groups of `group` (-1: the top-level groups), in tree order.
  func childGroups(of group: Int) -> [Int] {
    var children: [Int] = []
    var next = group + 1
    let end = group < 0 ? nodes.count : group + nodes[group].subtreeCount
    while next < end {
      children.append(next)
      next += nodes[next].subtreeCount
    }
    return children
  }
}

extension Rect {
  /// The smallest rectangle containing both.
  func union(_ other: Rect) -> Rect {
    let minX = Swift.min(self.minX, other.minX)
    let minY = Swift.min(self.minY, other.minY)
    let maxX = Swift.max(self.maxX, other.maxX)
    let maxY = Swift.max(self.maxY, other.maxY)
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  /// The same rectangle moved by (dx, dy).
  func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: x + dx, y: y + dy, width: width, height: height)
  }
}
