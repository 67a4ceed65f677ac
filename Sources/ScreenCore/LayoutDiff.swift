import FocusEngine

/// The commands that turn the layout a screen has into a new one an app describes whole (a web
/// page measures its DOM into a layout each time it changes).
///
/// A patch where one says it: groups removed and added, items removed, moved, made available
/// or unavailable, added, and items whose other fields changed removed and added again. The
/// engine then treats a vanished focused item as any patch's (focus recovery to a near
/// neighbour). Changes a patch cannot say (the canvas, the layout's options, the guides, a
/// group's options or parent, an item moving between groups) replace the layout, keeping the
/// focused item when the new layout has it. No change: no command.
///
/// - Complexity: O(n) in items and groups.
public enum LayoutDiff {
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
    let oldShapes = shapes(old)
    let newShapes = Dictionary(shapes(new), uniquingKeysWith: { first, _ in first })
    let oldShapeByID = Dictionary(oldShapes, uniquingKeysWith: { first, _ in first })
    var operations: [LayoutPatch.Operation] = []
    // Groups gone: the outermost of each removed subtree (its items go with it).
    var removedGroups: Set<String> = []
    for (id, shape) in oldShapes where newShapes[id] == nil {
      removedGroups.insert(id)
      if let parent = shape.parent, removedGroups.contains(parent) { continue }
      operations.append(.removeGroup(id))
    }
    for (id, shape) in oldShapes where !removedGroups.contains(id) {
      guard newShapes[id] == shape else { return nil }
    }
    let oldOwners = owners(old)
    let newOwners = owners(new)
    let newItems = Dictionary(
      new.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var gone: Set<String> = []
    for item in old.items {
      let owner = oldOwners[item.id]
      let inRemovedGroup = owner.map(removedGroups.contains) ?? false
      if inRemovedGroup { gone.insert(item.id) }
      guard let replacement = newItems[item.id] else {
        if !inRemovedGroup { operations.append(.removeItem(item.id)) }
        continue
      }
      if inRemovedGroup { continue }
      guard newOwners[item.id] == owner else { return nil }
      var same = replacement
      same.frame = item.frame
      same.available = item.available
      if same != item {
        operations.append(.removeItem(item.id))
        gone.insert(item.id)
        continue
      }
      if replacement.frame != item.frame {
        operations.append(.moveItem(item.id, frame: replacement.frame))
      }
      if replacement.available != item.available {
        operations.append(.setItemAvailable(item.id, replacement.available))
      }
    }
    for (id, shape) in shapes(new) where oldShapeByID[id] == nil {
      operations.append(.addGroup(shape.group, parent: shape.parent))
    }
    let oldIDs = Set(old.items.map(\.id))
    for item in new.items where !oldIDs.contains(item.id) || gone.contains(item.id) {
      operations.append(.addItem(item, group: newOwners[item.id]))
    }
    // An item removed and added again to change it keeps focus if it had it.
    let refocus = focused.flatMap { gone.contains($0) && newItems[$0] != nil ? $0 : nil }
    return LayoutPatch(operations, focus: refocus.map { .item($0) })
  }
}
