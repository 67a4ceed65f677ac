/// One virtual group's share of the item positions: positions `base ..< base + items.count`
/// are its items 0, 1, … (after every listed item), so the rest of the engine addresses listed
/// and virtual items alike by an `Int` position.
struct VirtualSpan: Sendable, Equatable {
  /// The group's index in `LayoutIndex.nodes`.
  var group: Int
  /// The position of item 0.
  var base: Int
  /// The declaration.
  var items: VirtualItems
  /// Whether its items can take focus (the group is enabled and revealed).
  var focusable: Bool
}

extension LayoutIndex {
  /// Gives each virtual group its position range, in tree order. O(groups).
  mutating func makeVirtualSpans() {
    var base = listedCount
    for group in nodes.indices {
      guard let items = groupValues[group].virtual else { continue }
      nodes[group].virtual = virtualSpans.count
      let hidden = ancestors(of: group).contains { groupValues[$0].revealOnPointer }
      virtualSpans.append(
        VirtualSpan(
          group: group, base: base, items: items, focusable: nodes[group].enabled && !hidden))
      base += items.count
    }
  }

  /// Whether `position` is a virtual item's.
  @inline(__always)
  func isVirtual(_ position: Int) -> Bool { position >= listedCount }

  /// The span and index of a virtual position. O(log groups).
  func virtualLocation(_ position: Int) -> (span: Int, index: Int) {
    var low = 0
    var high = virtualSpans.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if virtualSpans[middle].base <= position { low = middle } else { high = middle - 1 }
    }
    return (low, position - virtualSpans[low].base)
  }

  /// The group directly containing the item at `position` (-1: the root).
  @inline(__always)
  func groupOf(_ position: Int) -> Int {
    position < listedCount
      ? itemGroup[position] : virtualSpans[virtualLocation(position).span].group
  }

  /// Whether the item at `position` can take focus (a virtual one: its group can and its
  /// supplied content does not make it unavailable).
  @inline(__always)
  func isFocusable(_ position: Int) -> Bool {
    guard position >= listedCount else { return focusable[position] }
    let (span, item) = virtualLocation(position)
    return virtualSpans[span].focusable && virtualSpans[span].items.isAvailable(item)
  }

  /// The item's rank in reading order. Virtual items rank after every listed item, in
  /// position order (this only breaks ties between equally near candidates).
  @inline(__always)
  func rankOf(_ position: Int) -> Int { position < listedCount ? rank[position] : position }

  /// The position of the item with this id: a listed id, a virtual `group#index` whose
  /// index is below its group's count, or a virtual `group#=key` whose key the group's
  /// supplied content carries. O(1) for listed ids, O(id length) for virtual ones, O(content)
  /// for keyed ones.
  func position(of id: String) -> Int? {
    // Listed ids never hold "#" (TextRules), so a virtual-shaped id skips the listed table.
    guard !virtualSpans.isEmpty, let (group, index) = VirtualItems.parse(id) else {
      if !virtualSpans.isEmpty, let (group, key) = VirtualItems.parseKey(id) {
        return position(group: group, key: key)
      }
      return itemIndex[id]
    }
    guard let node = groupIndex[String(group)], nodes[node].virtual >= 0 else { return nil }
    let span = virtualSpans[nodes[node].virtual]
    return index < span.items.count ? span.base + index : nil
  }

  /// The position of the item of virtual group `group` whose supplied content carries `key`.
  private func position(group: Substring, key: Substring) -> Int? {
    guard let node = groupIndex[String(group)], nodes[node].virtual >= 0 else { return nil }
    let span = virtualSpans[nodes[node].virtual]
    return span.items.index(ofKey: key).map { span.base + $0 }
  }
}

extension FocusState {
  /// The id of the item at `position` (a virtual item's `group#index`).
  func itemID(at position: Int) -> String {
    guard index.isVirtual(position) else { return layout.items[position].id }
    let (span, item) = index.virtualLocation(position)
    return VirtualItems.id(group: index.nodes[index.virtualSpans[span].group].id, index: item)
  }

  /// The frame of the item at `position` in its group's content space.
  func contentFrame(at position: Int) -> Rect {
    guard index.isVirtual(position) else { return layout.items[position].frame }
    let (span, item) = index.virtualLocation(position)
    return index.virtualSpans[span].items.frame(at: item)
  }

  /// The kind of the item at `position` (virtual items are buttons).
  func itemKind(at position: Int) -> ItemKind {
    index.isVirtual(position) ? .button : layout.items[position].kind
  }

  /// The parallax layers of the item at `position` (a virtual item's, made on demand).
  func layers(at position: Int) -> [ParallaxLayer] {
    index.isVirtual(position) ? itemValue(at: position).layers : layout.items[position].layers
  }

  /// The item at `position`; a virtual one is made on demand (its id, placeholder title and
  /// frame).
  func itemValue(at position: Int) -> Item {
    guard index.isVirtual(position) else { return layout.items[position] }
    let (span, item) = index.virtualLocation(position)
    let group = index.nodes[index.virtualSpans[span].group].id
    return index.virtualSpans[span].items.item(group: group, index: item)
  }

  /// The virtual group and index of an item id, if it names a virtual item of this layout.
  public func virtualIndex(of id: String) -> (group: String, index: Int)? {
    guard let position = index.position(of: id), index.isVirtual(position) else { return nil }
    let (span, item) = index.virtualLocation(position)
    return (index.nodes[index.virtualSpans[span].group].id, item)
  }
}
