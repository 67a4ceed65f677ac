/// A change to part of a layout: items and groups added, removed, moved, enabled or disabled,
/// guides added, removed, enabled or disabled. Applied in order; the result is validated as a
/// whole, and a patch that fails leaves the layout as it was. (The engine applies a patch of
/// only availability and enabled flags to a listed layout in place, with the same result:
/// `FocusState+AttributePatch.swift`.)
public struct LayoutPatch: Sendable, Equatable {
  /// One change.
  public enum Operation: Sendable, Equatable {
    /// Adds an item to a group (nil: top level): at the end of the layout's items and of the
    /// group's, or with `before`, just before that item in the layout's items and, in the
    /// group, before the first of its items that follows it in the layout's order (the end if
    /// none does). So a group whose items follow the layout's order keeps following it.
    ///
    /// - Complexity: O(1) amortized at the end; O(n) in the layout's items with `before`.
    case addItem(Item, group: String?, before: String? = nil)
    /// Removes an item (and its mentions in groups, guides and `initialFocus`).
    case removeItem(String)
    /// Gives an item a new frame.
    case moveItem(String, frame: Rect)
    /// Makes an item available or unavailable.
    case setItemAvailable(String, Bool)
    /// Adds a group inside another (nil: top level).
    case addGroup(Group, parent: String?)
    /// Removes a group, its nested groups and all their items.
    case removeGroup(String)
    /// Enables or disables a group (a disabled group's items are unavailable).
    case setGroupEnabled(String, Bool)
    /// Adds a focus guide.
    case addGuide(FocusGuide)
    /// Removes a focus guide.
    case removeGuide(String)
    /// Enables or disables a focus guide.
    case setGuideEnabled(String, Bool)
    /// Supplies content for items of a virtual group, by index (at most
    /// ``VirtualItems/maximumContent`` items, each below the group's count): merged with what
    /// the group holds; then only the items inside its wanted window are kept
    /// (``VirtualWant``), at most ``VirtualItems/maximumContent``.
    case setVirtualContent(group: String, items: [Int: VirtualContent])
  }

  /// The changes, in order.
  public var operations: [Operation]
  /// Where focus goes once the patch is applied, in the same step (no intermediate focus):
  /// how an app closes a view and puts focus back where it was. Ignored if it cannot be
  /// focused; the usual recovery applies then.
  public var focus: FocusTarget?

  /// Creates a patch.
  public init(_ operations: [Operation], focus: FocusTarget? = nil) {
    self.operations = operations
    self.focus = focus
  }

  /// The layout with every operation applied, validated.
  ///
  /// Errors name the operation, like `operations[2]: unknown item "x"`, or the path in the
  /// resulting layout that fails validation.
  public func applied(to layout: Layout) throws(LayoutError) -> Layout {
    try applied(to: layout, keeping: [:])
  }

  /// The layout with every operation applied, validated; supplied virtual content is kept
  /// only inside each group's `wanted` region (a group without one keeps all of it).
  func applied(to layout: Layout, keeping wanted: [String: VirtualRegion]) throws(LayoutError)
    -> Layout
  {
    var result = layout
    for (position, operation) in operations.enumerated() {
      try Self.apply(operation, path: "operations[\(position)]", to: &result, keeping: wanted)
    }
    try result.validate()
    return result
  }

  /// Applies one operation (at `path` among the patch's operations) to `layout`, unvalidated.
  private static func apply(
    _ operation: Operation, path: String, to layout: inout Layout,
    keeping wanted: [String: VirtualRegion]
  ) throws(LayoutError) {
    func unknown(_ kind: String, _ id: String) -> LayoutError {
      LayoutError(path: path, reason: "unknown \(kind) \"\(id)\"")
    }
    switch operation {
    case .addItem(let item, let group, let before):
      try insert(item, group: group, before: before, into: &layout, unknown: unknown)
    case .removeItem(let id):
      guard layout.items.contains(where: { $0.id == id }) else { throw unknown("item", id) }
      remove(items: [id], from: &layout)
    case .moveItem(let id, let frame):
      guard let at = layout.items.firstIndex(where: { $0.id == id }) else {
        throw unknown("item", id)
      }
      layout.items[at].frame = frame
    case .setItemAvailable(let id, let available):
      guard let at = layout.items.firstIndex(where: { $0.id == id }) else {
        throw unknown("item", id)
      }
      layout.items[at].available = available
    case .addGroup(let group, let parent):
      guard let parent else {
        layout.groups.append(group)
        return
      }
      guard mutate(parent, in: &layout.groups, { $0.groups.append(group) }) else {
        throw unknown("group", parent)
      }
    case .removeGroup(let id):
      guard let removed = detach(id, from: &layout.groups) else { throw unknown("group", id) }
      var ids: [String] = []
      var groupIDs: [String] = []
      collect(removed, items: &ids, groups: &groupIDs)
      remove(items: ids, from: &layout)
      strip(Set(groupIDs), from: &layout)
    case .setGroupEnabled(let id, let enabled):
      guard mutate(id, in: &layout.groups, { $0.enabled = enabled }) else {
        throw unknown("group", id)
      }
    case .addGuide(let guide):
      layout.guides.append(guide)
    case .removeGuide(let id):
      guard layout.guides.contains(where: { $0.id == id }) else { throw unknown("guide", id) }
      layout.guides.removeAll { $0.id == id }
      strip([id], from: &layout)
    case .setGuideEnabled(let id, let enabled):
      guard let at = layout.guides.firstIndex(where: { $0.id == id }) else {
        throw unknown("guide", id)
      }
      layout.guides[at].enabled = enabled
    case .setVirtualContent(let group, let items):
      try supply(items, group: group, path: path, to: &layout, keeping: wanted[group])
    }
  }

  /// `addItem`: inserts the item into the layout's items and, keeping their layout order,
  /// into its group's (see ``Operation/addItem(_:group:before:)``).
  private static func insert(
    _ item: Item, group: String?, before: String?, into layout: inout Layout,
    unknown: (String, String) -> LayoutError
  ) throws(LayoutError) {
    var at = layout.items.endIndex
    if let before {
      guard let found = layout.items.firstIndex(where: { $0.id == before }) else {
        throw unknown("item", before)
      }
      at = found
    }
    layout.items.insert(item, at: at)
    guard let group else { return }
    // The items after it in the layout's order (none when it went at the end).
    let later = Set(layout.items[(at + 1)...].lazy.map(\.id))
    let added = mutate(group, in: &layout.groups) { group in
      group.items.insert(
        item.id, at: group.items.firstIndex(where: later.contains) ?? group.items.endIndex)
    }
    guard added else { throw unknown("group", group) }
  }

  /// `setVirtualContent`: checks the supplied content against the group's count and merges
  /// it, keeping only what lies inside `region` when the group has one.
  private static func supply(
    _ items: [Int: VirtualContent], group: String, path: String, to layout: inout Layout,
    keeping region: VirtualRegion?
  ) throws(LayoutError) {
    var count: Int?
    guard mutate(group, in: &layout.groups, { count = $0.virtual?.count }) else {
      throw LayoutError(path: path, reason: "unknown group \"\(group)\"")
    }
    guard let count else {
      throw LayoutError(path: path, reason: "group \"\(group)\" is not virtual")
    }
    try Layout.checkVirtualContent(items, count: count, group: group, path: path + ".items")
    _ = mutate(group, in: &layout.groups) { node in
      node.virtual?.merge(items)
      if let region { node.virtual?.keepContent(in: region) }
    }
  }

  /// Applies `body` to the group with this id, anywhere in the tree.
  private static func mutate(
    _ id: String, in groups: inout [Group], _ body: (inout Group) -> Void
  ) -> Bool {
    for position in groups.indices {
      if groups[position].id == id {
        body(&groups[position])
        return true
      }
      if mutate(id, in: &groups[position].groups, body) { return true }
    }
    return false
  }

  /// Takes the group with this id out of the tree.
  private static func detach(_ id: String, from groups: inout [Group]) -> Group? {
    if let at = groups.firstIndex(where: { $0.id == id }) { return groups.remove(at: at) }
    for position in groups.indices {
      if let found = detach(id, from: &groups[position].groups) { return found }
    }
    return nil
  }

  private static func collect(_ group: Group, items: inout [String], groups: inout [String]) {
    items += group.items
    groups.append(group.id)
    for child in group.groups { collect(child, items: &items, groups: &groups) }
  }

  /// Removes items and every mention of them.
  private static func remove(items ids: [String], from layout: inout Layout) {
    let gone = Set(ids)
    layout.items.removeAll { gone.contains($0.id) }
    func clean(_ groups: inout [Group]) {
      for position in groups.indices {
        groups[position].items.removeAll { gone.contains($0) }
        clean(&groups[position].groups)
      }
    }
    clean(&layout.groups)
    strip(gone, from: &layout)
  }

  /// Drops mentions of vanished ids from guides, preferred focus and `initialFocus`; a guide
  /// left with no destination goes too.
  private static func strip(_ gone: Set<String>, from layout: inout Layout) {
    if let initial = layout.initialFocus, gone.contains(initial) { layout.initialFocus = nil }
    func clean(_ groups: inout [Group]) {
      for position in groups.indices {
        if let preferred = groups[position].preferredFocus, gone.contains(preferred) {
          groups[position].preferredFocus = nil
        }
        clean(&groups[position].groups)
      }
    }
    clean(&layout.groups)
    var removedGuides: Set<String> = []
    for position in layout.guides.indices {
      layout.guides[position].destinations.removeAll { gone.contains($0) }
      if let group = layout.guides[position].group, gone.contains(group) {
        layout.guides[position].destinations = []
      }
      if layout.guides[position].destinations.isEmpty {
        removedGuides.insert(layout.guides[position].id)
      }
    }
    if !removedGuides.isEmpty {
      layout.guides.removeAll { removedGuides.contains($0.id) }
      strip(removedGuides, from: &layout)
    }
  }
}
