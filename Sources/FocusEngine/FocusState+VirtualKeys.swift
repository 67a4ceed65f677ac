/// Stable keys (``VirtualContent/key``): the ids the session stores for virtual items
/// (focus, the held press, selection, remembered focus, the pointer's target) follow their
/// item's key across a layout change.
///
/// Stored ids stay in the index form `group#index`, what renderers and apps see. Before a
/// layout replaces the current one (a patch, a registration), each stored virtual id whose
/// item's supplied content carries a key is noted; after it, if the new layout's content of
/// that group carries the key, the id is rewritten to the key's new index. An app that inserts
/// items before the focused one (a new count and new content, keys included) so keeps focus
/// on the same item; a key no longer in the supplied content leaves the id as it was, and the
/// index rules apply (the same index, or the group's last item if the count fell below it).
extension FocusState {
  /// A stored virtual id's group and key.
  struct VirtualKeyRef: Equatable {
    var group: String
    var key: String
  }

  /// The group and key of every stored virtual id whose item carries a key now. O(stored
  /// virtual ids + content of their groups); nothing when no virtual group holds content.
  func storedVirtualKeys() -> [String: VirtualKeyRef] {
    guard index.virtualSpans.contains(where: { !$0.items.content.isEmpty }) else { return [:] }
    var keys: [String: VirtualKeyRef] = [:]
    func note(_ id: String?) {
      guard let id, keys[id] == nil, VirtualItems.parse(id) != nil,
        let position = index.position(of: id), index.isVirtual(position)
      else { return }
      let (span, item) = index.virtualLocation(position)
      let items = index.virtualSpans[span].items
      guard !items.content.isEmpty, let key = items.content[item]?.key else { return }
      keys[id] = VirtualKeyRef(group: index.nodes[index.virtualSpans[span].group].id, key: key)
    }
    note(focused)
    note(pressed)
    note(pointer.target)
    selected.forEach(note)
    lastFocused.values.forEach(note)
    lastFocusedOwn.values.forEach(note)
    return keys
  }

  /// Rewrites every stored id noted in `keys` to the index its key has in the current layout,
  /// where the group's content still carries it.
  mutating func followVirtualKeys(_ keys: [String: VirtualKeyRef]) {
    var moved: [String: String] = [:]
    for (id, ref) in keys {
      guard let position = index.position(of: VirtualItems.id(group: ref.group, key: ref.key))
      else { continue }
      let now = itemID(at: position)
      if now != id { moved[id] = now }
    }
    guard !moved.isEmpty else { return }
    func follow(_ id: String) -> String { moved[id] ?? id }
    if let focused, let now = moved[focused] { self.focused = now }
    if let pressed, let now = moved[pressed] { self.pressed = now }
    if let target = pointer.target, let now = moved[target] { pointer.target = now }
    if selected.contains(where: { moved[$0] != nil }) { selected = Set(selected.map(follow)) }
    lastFocused = lastFocused.mapValues(follow)
    lastFocusedOwn = lastFocusedOwn.mapValues(follow)
  }

  /// The canonical `group#index` form of an id that names a virtual item by its key (other
  /// ids unchanged).
  func canonicalID(_ id: String) -> String {
    guard VirtualItems.parseKey(id) != nil, let position = index.position(of: id) else {
      return id
    }
    return itemID(at: position)
  }

  /// The focus change a key's move makes: the same item, under its new index, reported as a
  /// recovery so screens and apps see the new id.
  func appendKeyMove(
    from previous: String?, to current: String?, cause: FocusCause?,
    _ effects: inout [FocusEffect]
  ) {
    guard previous != current else { return }
    effects.append(
      .focusChanged(
        FocusUpdateContext(previous: previous, next: current, heading: .recovery, cause: cause)))
  }
}
