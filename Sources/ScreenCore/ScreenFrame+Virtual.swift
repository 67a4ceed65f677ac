import FocusEngine

extension ScreenFrame {
  /// The items a renderer draws: every listed item, then the visible items of the virtual
  /// groups (``visibleVirtualItems()``), whatever their count.
  public var drawnItems: [Item] {
    let virtual = visibleVirtualItems()
    return virtual.isEmpty ? layout.items : layout.items + virtual
  }

  /// The items of the virtual groups that meet their group's viewport as scrolled (the canvas
  /// for a group without one), made with their content-space frames and the content their app
  /// supplied (title, content, availability), else their placeholder titles. O(visible items).
  public func visibleVirtualItems() -> [Item] {
    var items: [Item] = []
    func walk(_ group: Group, _ outer: Rect?) {
      let view = self.view(of: group, inside: outer)
      for child in group.groups { walk(child, view) }
      guard let virtual = group.virtual else { return }
      for index in visibleVirtualIndices(of: group, in: view) {
        items.append(virtual.item(group: group.id, index: index))
      }
    }
    for group in layout.groups { walk(group, nil) }
    return items
  }

  /// Every virtual group's window: the indices of its items in view, the shift of its content
  /// and the content supplied for those items, in the groups' reading order. O(visible items).
  public func virtualWindows() -> [VirtualWindow] {
    var windows: [VirtualWindow] = []
    func walk(_ group: Group, _ inherited: Point, _ outer: Rect?) {
      let view = self.view(of: group, inside: outer)
      var total = inherited
      if let own = scroll[group.id] {
        total.x += own.x
        total.y += own.y
      }
      if let virtual = group.virtual {
        let indices = visibleVirtualIndices(of: group, in: view)
        var content: [Int: VirtualContent] = [:]
        if !virtual.content.isEmpty {
          for index in indices { content[index] = virtual.content[index] }
        }
        windows.append(
          VirtualWindow(
            group: group.id, shift: total, indices: indices,
            frames: indices.map(virtual.frame(at:)), content: content))
      }
      for child in group.groups { walk(child, total, view) }
    }
    for group in layout.groups { walk(group, .zero, nil) }
    return windows
  }

  /// What of `group`'s content is in view, in its content space, given what of its parent's
  /// is (`outer`; nil: nothing bounds it): the engine's rule (``Group/view(inside:offset:)``).
  func view(of group: Group, inside outer: Rect?) -> Rect? {
    group.view(inside: outer, offset: scroll[group.id] ?? .zero)
  }

  /// The indices of a virtual group's items inside `view` (its content in view, from
  /// ``view(of:inside:)``; nil: the canvas).
  func visibleVirtualIndices(of group: Group, in view: Rect?) -> [Int] {
    guard let virtual = group.virtual else { return [] }
    return virtual.indices(
      in: view ?? Rect(x: 0, y: 0, width: layout.canvas.width, height: layout.canvas.height))
  }

  /// The ids of the group's own drawn items: its listed members and its visible virtual ones
  /// (`view`: what of its content is in view).
  func drawnMembers(of group: Group, in view: Rect?) -> [String] {
    guard group.virtual != nil else { return group.items }
    return group.items
      + visibleVirtualIndices(of: group, in: view).map {
        VirtualItems.id(group: group.id, index: $0)
      }
  }
}
