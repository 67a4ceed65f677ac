/// Patches that change only attributes no table of the index is built from: an item made
/// available or unavailable, a group enabled or disabled, a guide enabled or disabled. Such a
/// patch moves no frame, adds or removes nothing and leaves the group tree's shape as it was,
/// so the layout it makes is valid whenever the current one is (validation reads none of those
/// flags) and every derived table but the per-item `focusable` flags (and the places counted
/// from them) and the groups' `enabled` stays what it was. It is applied in place: the ids
/// looked up, the flags set, the changed items' focusability recomputed, then focus recovers
/// exactly as after a whole replacement (``recoverFocus(_:cause:focusing:)``). The state is the
/// one the general path (``applyPatchWhole(_:cause:)``) gives, and so is the error of a patch
/// that names an unknown id (nothing changes then).
///
/// Layouts with virtual groups take the general path (their stored ids follow content keys
/// across every layout change, ``followVirtualKeys(_:)``).
///
/// - Complexity: O(operations + items whose focusability may change + declared-selected
///   items), plus the depth and siblings of each changed group, instead of the O(n log n) of
///   validating and indexing the whole layout again.
extension FocusState {
  /// One operation of an attribute-only patch, resolved to the index.
  enum AttributeChange: Equatable {
    /// An item (its position) made available or not.
    case item(Int, available: Bool)
    /// A group (its index in the index's nodes) enabled or not.
    case group(Int, enabled: Bool)
    /// A guide (its index in the layout's guides) enabled or not.
    case guide(Int, enabled: Bool)
  }

  /// Applies `patch` in place if it changes only attributes (see the extension's summary);
  /// nil when it needs the general path.
  mutating func applyAttributePatch(_ patch: LayoutPatch, cause: FocusCause?) -> [FocusEffect]? {
    guard let resolved = attributeChanges(of: patch) else { return nil }
    let changes: [AttributeChange]
    switch resolved {
    case .failure(let error): return [.layoutRejected(error)]
    case .success(let found): changes = found
    }
    let context = recoveryContext()
    for change in changes {
      switch change {
      case .item(let position, let available): setItem(position, available: available)
      case .group(let group, let enabled): setGroup(group, enabled: enabled)
      case .guide(let guide, let enabled): setGuide(guide, enabled: enabled)
      }
    }
    // A layout change selects again the items the layout declares selected.
    for position in index.declaredSelected { selected.insert(layout.items[position].id) }
    return recoverFocus(context, cause: cause, focusing: patch.focus)
  }

  /// The patch's operations resolved in order, the error the general path gives for the first
  /// unknown id, or nil when an operation is not attribute-only or the layout has virtual
  /// groups.
  func attributeChanges(of patch: LayoutPatch) -> Result<[AttributeChange], LayoutError>? {
    guard index.virtualSpans.isEmpty else { return nil }
    var changes: [AttributeChange] = []
    changes.reserveCapacity(patch.operations.count)
    for (position, operation) in patch.operations.enumerated() {
      func unknown(_ kind: String, _ id: String) -> Result<[AttributeChange], LayoutError> {
        .failure(LayoutError(path: "operations[\(position)]", reason: "unknown \(kind) \"\(id)\""))
      }
      switch operation {
      case .setItemAvailable(let id, let available):
        guard let item = index.itemIndex[id] else { return unknown("item", id) }
        changes.append(.item(item, available: available))
      case .setGroupEnabled(let id, let enabled):
        guard let group = index.groupIndex[id] else { return unknown("group", id) }
        changes.append(.group(group, enabled: enabled))
      case .setGuideEnabled(let id, let enabled):
        guard let guide = index.guideIndex[id] else { return unknown("guide", id) }
        changes.append(.guide(guide, enabled: enabled))
      case .addItem, .removeItem, .moveItem, .addGroup, .removeGroup, .addGuide, .removeGuide,
        .setVirtualContent:
        return nil
      }
    }
    return .success(changes)
  }

  /// Sets an item's availability and its focusability.
  private mutating func setItem(_ position: Int, available: Bool) {
    layout.items[position].available = available
    refreshFocusable(position)
  }

  /// Enables or disables a group: its value in the layout's tree and in the index (its own
  /// and every ancestor's copy of it), the `enabled` of the groups in its subtree, and the
  /// focusability of their items.
  private mutating func setGroup(_ group: Int, enabled: Bool) {
    // The group's path from the top: its node and its place among its siblings, outermost
    // first.
    let chain = Array(index.ancestors(of: group)).reversed()
    let path = chain.map { node in
      index.childGroups(of: index.nodes[node].parent).firstIndex(of: node) ?? -1
    }
    Self.update(&layout.groups, path: path[...]) { $0.enabled = enabled }
    var level = layout.groups
    for (node, place) in zip(chain, path) {
      index.groupValues[node] = level[place]
      level = level[place].groups
    }
    let end = group + index.nodes[group].subtreeCount
    for member in group..<end {
      let parent = index.nodes[member].parent
      index.nodes[member].enabled =
        (parent < 0 || index.nodes[parent].enabled) && index.groupValues[member].enabled
    }
    for member in group..<end {
      for position in index.nodes[member].directItems {
        index.focusable[position] = index.baseFocusable(position, layout) && isRevealed(position)
      }
      index.recountFocusable(inGroup: member)
    }
  }

  /// Enables or disables a guide (the index holds nothing derived from the flag).
  private mutating func setGuide(_ guide: Int, enabled: Bool) {
    layout.guides[guide].enabled = enabled
  }

  /// Recomputes a listed item's focusability as indexing and ``applyReveal()`` would, and the
  /// places in its group if it changed.
  private mutating func refreshFocusable(_ position: Int) {
    let focusable = index.baseFocusable(position, layout) && isRevealed(position)
    guard focusable != index.focusable[position] else { return }
    index.focusable[position] = focusable
    index.recountFocusable(inGroup: index.itemGroup[position])
  }

  /// Applies `body` to the group at `path` (a place among siblings per level, outermost
  /// first).
  private static func update(
    _ groups: inout [Group], path: ArraySlice<Int>, _ body: (inout Group) -> Void
  ) {
    guard let place = path.first else { return }
    if path.count == 1 {
      body(&groups[place])
    } else {
      update(&groups[place].groups, path: path.dropFirst(), body)
    }
  }
}
