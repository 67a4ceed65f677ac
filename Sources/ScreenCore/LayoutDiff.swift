import FocusEngine

/// The commands that turn the layout a screen has into a new one an app describes whole (a web
/// page measures its DOM into a layout each time it changes).
///
/// A patch when one yields exactly the new layout, order included (declaration order breaks
/// the engine's reading-order ties and is Android search's order, so it must follow the DOM):
/// groups removed and added, items removed, moved, made available or unavailable, and added.
///
/// **Which items stay.** An item may stay where it is when both layouts have it, in the same
/// group, unchanged but for frame and availability. Of those, the ones kept are the longest
/// run that both orders share (a longest increasing subsequence of their old positions, taken
/// in the new order); every other item is removed (if it was there) and added again at its
/// place in the new order (`addItem` with `before`: the next kept item). So a patch grows with
/// the change, not the layout: one element inserted, removed or moved in a row of 10,000 is
/// one or two operations. An insertion with `before` costs the engine O(n) to apply, so when
/// more than `positionalLimit` additions would need one, the kept items are instead the
/// longest prefix of the new order that the old order holds in the same order, and every later
/// item is added again at the end (O(n) operations, each O(1) to apply). The engine treats a
/// vanished focused item as any patch's (focus recovery to a near neighbour); an item removed
/// and added again keeps focus. Changes a patch cannot say (the canvas, the layout's options,
/// the guides, a group's options or parent, groups reordered among their siblings, a group
/// whose item list does not follow the layout's item order) replace the layout, keeping the
/// focused item when the new layout has it. No change: no command.
///
/// - Complexity: O(n log n) in items, O(n) in groups.
public enum LayoutDiff {
  /// At most this many additions go before a kept item (`addItem` with `before`, O(n) each to
  /// apply); past it the items after the kept prefix are added again at the end.
  static let positionalLimit = 64

  /// The commands from `old` (focus on `focused`) to `new`.
  public static func commands(from old: Layout, to new: Layout, focused: String?)
    -> [AppCommand]
  {
    if old == new { return [] }
    guard let patch = patch(from: old, to: new, focused: focused) else {
      var replacement = new
      if let focused, new.items.contains(where: { $0.id == focused }) {
        replacement.initialFocus = focused
      }
      return [.replaceLayout(replacement)]
    }
    return patch.operations.isEmpty ? [] : [.patch(patch)]
  }

  /// A group without its items and child groups, and its parent's id.
  private struct Shape: Equatable {
    var group: Group
    var parent: String?
  }

  /// Every group by id, in pre-order, with its shape.
  private static func shapes(_ layout: Layout) -> [(String, Shape)] {
    var result: [(String, Shape)] = []
    func walk(_ group: Group, parent: String?) {
      var bare = group
      bare.items = []
      bare.groups = []
      result.append((group.id, Shape(group: bare, parent: parent)))
      for child in group.groups { walk(child, parent: group.id) }
    }
    for group in layout.groups { walk(group, parent: nil) }
    return result
  }

  /// Item id → the id of the group that lists it.
  private static func owners(_ layout: Layout) -> [String: String] {
    var result: [String: String] = [:]
    func walk(_ group: Group) {
      for item in group.items { result[item] = group.id }
      for child in group.groups { walk(child) }
    }
    layout.groups.forEach(walk)
    return result
  }

  /// Whether every group lists its items in the layout's item order (as a page's do), so
  /// that appending to both keeps them in step.
  private static func listsFollowItemOrder(_ layout: Layout, owners: [String: String]) -> Bool {
    var induced: [String: [String]] = [:]
    for item in layout.items {
      if let owner = owners[item.id] { induced[owner, default: []].append(item.id) }
    }
    var follows = true
    func walk(_ group: Group) {
      if group.items != induced[group.id, default: []] { follows = false }
      group.groups.forEach(walk)
    }
    layout.groups.forEach(walk)
    return follows
  }

  /// Parent id ("" for the top level) → its child groups' ids, in order.
  private static func children(_ layout: Layout) -> [String: [String]] {
    var result: [String: [String]] = ["": layout.groups.map(\.id)]
    func walk(_ group: Group) {
      result[group.id] = group.groups.map(\.id)
      group.groups.forEach(walk)
    }
    layout.groups.forEach(walk)
    return result
  }

  /// The patch, or nil when a patch cannot say the change.
  private static func patch(from old: Layout, to new: Layout, focused: String?) -> LayoutPatch? {
    var oldOptions = old
    var newOptions = new
    oldOptions.items = []
    oldOptions.groups = []
    oldOptions.initialFocus = nil
    newOptions.items = []
    newOptions.groups = []
    newOptions.initialFocus = nil
    guard oldOptions == newOptions, !old.items.isEmpty else { return nil }
    let oldOwners = owners(old)
    let newOwners = owners(new)
    guard listsFollowItemOrder(old, owners: oldOwners),
      listsFollowItemOrder(new, owners: newOwners),
      let groupChanges = groupOperations(from: old, to: new)
    else { return nil }
    let (groups, removedGroups) = groupChanges
    let (items, gone) = itemOperations(
      from: old, to: new, removedGroups: removedGroups, owners: (oldOwners, newOwners))
    let operations = groups.removals + items.changes + groups.additions + items.additions
    // An item removed and added again keeps focus if it had it.
    let refocus = focused.flatMap { gone.contains($0) ? $0 : nil }
    return LayoutPatch(operations, focus: refocus.map { .item($0) })
  }

  /// Groups removed (the outermost of each removed subtree: its items go with it) and added
  /// (empty, in pre-order), and the ids of every removed group; nil when a kept group changed
  /// its options or parent, or kept groups changed order among their siblings.
  private static func groupOperations(from old: Layout, to new: Layout) -> (
    (removals: [LayoutPatch.Operation], additions: [LayoutPatch.Operation]), Set<String>
  )? {
    let oldShapes = shapes(old)
    let newShapeList = shapes(new)
    let newShapes = Dictionary(newShapeList, uniquingKeysWith: { first, _ in first })
    let oldShapeByID = Dictionary(oldShapes, uniquingKeysWith: { first, _ in first })
    var removals: [LayoutPatch.Operation] = []
    var removed: Set<String> = []
    for (id, shape) in oldShapes where newShapes[id] == nil {
      removed.insert(id)
      if let parent = shape.parent, removed.contains(parent) { continue }
      removals.append(.removeGroup(id))
    }
    for (id, shape) in oldShapes where !removed.contains(id) {
      guard newShapes[id] == shape else { return nil }
    }
    // `addGroup` appends to its parent: the kept children must come first, in the old order.
    let oldChildren = children(old)
    for (parent, ids) in children(new) {
      let kept = (oldChildren[parent] ?? []).filter { !removed.contains($0) }
      guard ids.starts(with: kept) else { return nil }
    }
    let additions = newShapeList.filter { oldShapeByID[$0.0] == nil }.map {
      LayoutPatch.Operation.addGroup($0.1.group, parent: $0.1.parent)
    }
    return ((removals, additions), removed)
  }

  /// The items' operations: removals, moves and availability in the old order, then the
  /// additions in the new order (see the type's summary for which items are added again), and
  /// the ids of the items removed that the new layout has.
  private static func itemOperations(
    from old: Layout, to new: Layout, removedGroups: Set<String>,
    owners: (old: [String: String], new: [String: String])
  ) -> ((changes: [LayoutPatch.Operation], additions: [LayoutPatch.Operation]), Set<String>) {
    let newItems = Dictionary(
      new.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var oldPosition: [String: Int] = [:]
    for (position, item) in old.items.enumerated() {
      let owner = owners.old[item.id]
      guard let replacement = newItems[item.id], !(owner.map(removedGroups.contains) ?? false),
        owners.new[item.id] == owner
      else { continue }
      var same = replacement
      same.frame = item.frame
      same.available = item.available
      if same == item { oldPosition[item.id] = position }
    }
    var kept = longestSharedRun(new.items.map(\.id), oldPosition: oldPosition)
    var before = nextKept(new.items, kept: kept)
    if zip(new.items, before).count(where: { !kept.contains($0.id) && $1 != nil })
      > positionalLimit
    {
      kept = keptPrefix(new.items.map(\.id), oldPosition: oldPosition)
      before = Array(repeating: nil, count: new.items.count)
    }
    var changes: [LayoutPatch.Operation] = []
    var gone: Set<String> = []
    for item in old.items {
      let inRemovedGroup = owners.old[item.id].map(removedGroups.contains) ?? false
      guard kept.contains(item.id), let replacement = newItems[item.id] else {
        if !inRemovedGroup { changes.append(.removeItem(item.id)) }
        if newItems[item.id] != nil { gone.insert(item.id) }
        continue
      }
      if replacement.frame != item.frame {
        changes.append(.moveItem(item.id, frame: replacement.frame))
      }
      if replacement.available != item.available {
        changes.append(.setItemAvailable(item.id, replacement.available))
      }
    }
    let additions = zip(new.items, before).filter { !kept.contains($0.0.id) }.map {
      LayoutPatch.Operation.addItem($0, group: owners.new[$0.id], before: $1)
    }
    return ((changes, additions), gone)
  }

  /// For each of `items`, the first kept item after it (nil: none).
  private static func nextKept(_ items: [Item], kept: Set<String>) -> [String?] {
    var result: [String?] = Array(repeating: nil, count: items.count)
    var next: String?
    for index in items.indices.reversed() {
      result[index] = next
      if kept.contains(items[index].id) { next = items[index].id }
    }
    return result
  }

  /// The ids of `ids` (the new order) that `oldPosition` has, kept as the longest prefix whose
  /// old positions increase.
  private static func keptPrefix(_ ids: [String], oldPosition: [String: Int]) -> Set<String> {
    var kept: Set<String> = []
    var cursor = -1
    for id in ids {
      guard let position = oldPosition[id], position > cursor else { break }
      kept.insert(id)
      cursor = position
    }
    return kept
  }

  /// The largest set of `ids` (the new order) that `oldPosition` has whose old positions
  /// increase in the new order: a longest increasing subsequence (patience sorting, each
  /// position placed on the leftmost pile whose top is not smaller, by binary search).
  ///
  /// - Complexity: O(n log n).
  static func longestSharedRun(_ ids: [String], oldPosition: [String: Int]) -> Set<String> {
    let candidates = ids.compactMap { id in oldPosition[id].map { (id, $0) } }
    // tops[k]: the index in `candidates` ending the best run of length k + 1 found so far.
    var tops: [Int] = []
    var previous = Array(repeating: -1, count: candidates.count)
    for (index, candidate) in candidates.enumerated() {
      var low = 0
      var high = tops.count
      while low < high {
        let middle = (low + high) / 2
        if candidates[tops[middle]].1 < candidate.1 { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tops[low - 1] }
      if low == tops.count { tops.append(index) } else { tops[low] = index }
    }
    var kept: Set<String> = []
    var index = tops.last ?? -1
    while index >= 0 {
      kept.insert(candidates[index].0)
      index = previous[index]
    }
    return kept
  }
}
