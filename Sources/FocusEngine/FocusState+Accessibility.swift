extension FocusState {
  /// The item's spoken name: its accessibility label, else its title (nil if both are empty or
  /// the id is unknown).
  public func accessibilityLabel(ofItem id: String) -> String? {
    guard let item = item(id) else { return nil }
    return Self.accessibilityLabel(of: item)
  }

  /// ``accessibilityLabel(ofItem:)`` of an item already at hand.
  static func accessibilityLabel(of item: Item) -> String? {
    let label = item.accessibility.label ?? item.title
    return label.isEmpty ? nil : label
  }

  /// The group's spoken name: its accessibility label, else the title of the first heading
  /// (`label` item) among its own items; nil if it has neither (or its label is empty).
  public func accessibilityLabel(ofGroup id: String) -> String? {
    guard let group = index.groupIndex[id] else { return nil }
    return accessibilityLabel(ofGroupAt: group)
  }

  func accessibilityLabel(ofGroupAt group: Int) -> String? {
    index.groupValues[group].accessibilityName { index.position(of: $0).map { itemValue(at: $0) } }
  }

  /// The item's value as spoken: its accessibility value, else a text field's text, else a
  /// toggle's "selected" or "not selected"; nil for other items.
  public func accessibilityValue(ofItem id: String) -> String? {
    guard let item = item(id) else { return nil }
    return accessibilityValue(of: item, id: id)
  }

  /// ``accessibilityValue(ofItem:)`` of an item already at hand, named `id`.
  func accessibilityValue(of item: Item, id: String) -> String? {
    if let value = item.accessibility.value { return value.isEmpty ? nil : value }
    switch item.kind {
    case .textField:
      let text = textValues[id] ?? item.value
      return text.isEmpty ? nil : text
    case .button where item.toggles:
      return selected.contains(id) ? "selected" : "not selected"
    case .button, .label:
      return nil
    }
  }

  /// The item's traits now: its declared traits (by default from its kind), then `selected`
  /// for a selected item that is not a toggle (a toggle says it in its value) and
  /// `unavailable` for one that cannot take focus.
  public func accessibilityTraits(ofItem id: String) -> [AccessibilityTrait] {
    guard let position = index.position(of: id) else { return [] }
    return accessibilityTraits(of: itemValue(at: position), id: id, at: position)
  }

  /// ``accessibilityTraits(ofItem:)`` of an item already at hand, named `id`, at `position`.
  func accessibilityTraits(of item: Item, id: String, at position: Int) -> [AccessibilityTrait] {
    var traits =
      item.accessibility.traits
      ?? {
        switch item.kind {
        case .button: [.button]
        case .textField: [.textField]
        case .label: [.header]
        }
      }()
    traits.removeAll { $0 == .selected || $0 == .unavailable }
    if selected.contains(id) && !(item.kind == .button && item.toggles) {
      traits.append(.selected)
    }
    if !index.isFocusable(position) && item.kind != .label { traits.append(.unavailable) }
    return traits
  }

  /// ``accessibilityTraits(of:id:at:)`` one by one, in the same order, without making the
  /// array (one allocation a description: about 260 instructions a request on the latency
  /// bench).
  func forEachAccessibilityTrait(
    of item: Item, id: String, at position: Int, _ body: (AccessibilityTrait) -> Void
  ) {
    if let declared = item.accessibility.traits {
      for trait in declared where trait != .selected && trait != .unavailable { body(trait) }
    } else {
      switch item.kind {
      case .button: body(.button)
      case .textField: body(.textField)
      case .label: body(.header)
      }
    }
    if selected.contains(id) && !(item.kind == .button && item.toggles) { body(.selected) }
    if !index.isFocusable(position) && item.kind != .label { body(.unavailable) }
  }

  /// The item's place among the focusable items of its own group (or of the top level), in
  /// reading order: `(index, count)`, 1-based. Unavailable items, headings and items of nested
  /// groups are not counted; nil for an item that cannot take focus or an unknown id.
  ///
  /// - Complexity: O(1): the index keeps each item's place (``LayoutIndex/focusPlace``).
  public func accessibilityPosition(ofItem id: String) -> (index: Int, count: Int)? {
    guard let position = index.position(of: id) else { return nil }
    return accessibilityPosition(at: position)
  }

  /// ``accessibilityPosition(ofItem:)`` of the item at `position`.
  func accessibilityPosition(at position: Int) -> (index: Int, count: Int)? {
    guard index.isVirtual(position) else { return index.placeAmongFocusable(position) }
    guard index.isFocusable(position) else { return nil }
    let (span, item) = index.virtualLocation(position)
    return (item + 1, index.virtualSpans[span].items.count)
  }

  /// ``accessibilityPosition(at:)`` counted the straightforward way, by a scan of the item's
  /// group: the reference the index's places are tested against. O(k) in the group's items.
  func accessibilityPositionByScan(at position: Int) -> (index: Int, count: Int)? {
    guard index.isFocusable(position) else { return nil }
    if index.isVirtual(position) {
      let (span, item) = index.virtualLocation(position)
      return (item + 1, index.virtualSpans[span].items.count)
    }
    let group = index.groupOf(position)
    let members = group >= 0 ? index.nodes[group].directItems : index.rootItems
    var count = 0
    var at = 0
    for member in members where index.focusable[member] {
      count += 1
      if member == position { at = count }
    }
    return at > 0 ? (at, count) : nil
  }

  /// The labelled groups around an item, outermost first, as `(id, label)`.
  func labelledGroups(aroundItem id: String) -> [(id: String, label: String)] {
    guard let position = index.position(of: id) else { return [] }
    return labelledGroups(at: position)
  }

  /// ``labelledGroups(aroundItem:)`` of the item at `position`.
  func labelledGroups(at position: Int) -> [(id: String, label: String)] {
    let group = index.groupOf(position)
    guard group >= 0 else { return [] }
    var chain: [(id: String, label: String)] = []
    for ancestor in index.ancestors(of: group) {
      if let label = accessibilityLabel(ofGroupAt: ancestor) {
        chain.append((index.nodes[ancestor].id, label))
      }
    }
    return chain.reversed()
  }

  /// The ids of the groups around an item, innermost first.
  func groupIDs(aroundItem id: String) -> [String] {
    guard let position = index.position(of: id) else { return [] }
    return groupIDs(at: position)
  }

  /// ``groupIDs(aroundItem:)`` of the item at `position`.
  func groupIDs(at position: Int) -> [String] {
    let group = index.groupOf(position)
    guard group >= 0 else { return [] }
    return index.ancestors(of: group).map { index.nodes[$0].id }
  }

  /// The innermost trapping group around the focused item, as `(id, label)`, if any.
  var trappingGroup: (id: String, label: String?)? {
    let scope = trapScope
    guard scope >= 0 else { return nil }
    return (index.nodes[scope].id, accessibilityLabel(ofGroupAt: scope))
  }

  /// Whether a move from the focused item in `direction` failed only because a trapping
  /// group holds focus: outside the trap, the search finds a destination.
  func isTrapped(moving direction: Direction) -> Bool {
    guard let from = focusedPosition, trapScope(ofItem: from) >= 0 else { return false }
    return search(
      from: presentedFrame(at: from), excluding: from, scope: -1,
      model: searchModel(forItem: from), direction) != nil
  }
}

extension Group {
  /// The group's spoken name: its accessibility label, else the title of the first heading
  /// (`label` item) among its own items, in declaration order; nil if it has neither or its
  /// label is empty. `item` looks an item up by id.
  public func accessibilityName(item: (String) -> Item?) -> String? {
    if let accessibilityLabel { return accessibilityLabel.isEmpty ? nil : accessibilityLabel }
    for id in items {
      if let member = item(id), member.kind == .label, !member.title.isEmpty { return member.title }
    }
    return nil
  }
}
