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
    func walk(_ group: Group) {
      group.groups.forEach(walk)
      guard let virtual = group.virtual else { return }
      for index in visibleVirtualIndices(of: group) {
        items.append(virtual.item(group: group.id, index: index))
      }
    }
    layout.groups.forEach(walk)
    return items
  }

  /// Every virtual group's window: the indices of its items in view, the shift of its content
  /// and the content supplied for those items, in the groups' reading order. O(visible items).
  public func virtualWindows() -> [VirtualWindow] {
    var windows: [VirtualWindow] = []
    func walk(_ group: Group, _ inherited: Point) {
      var total = inherited
      if let own = scroll[group.id] {
        total.x += own.x
        total.y += own.y
      }
      if let virtual = group.virtual {
        let indices = visibleVirtualIndices(of: group)
        var content: [Int: VirtualContent] = [:]
        if !virtual.content.isEmpty {
          for index in indices { content[index] = virtual.content[index] }
        }
        windows.append(
          VirtualWindow(group: group.id, shift: total, indices: indices, content: content))
      }
      for child in group.groups { walk(child, total) }
    }
    for group in layout.groups { walk(group, .zero) }
    return windows
  }

  /// The indices of a virtual group's items inside its viewport moved by its own scroll
  /// offset (the viewport lies in the parent's content space, the items in the group's).
  func visibleVirtualIndices(of group: Group) -> [Int] {
    guard let virtual = group.virtual else { return [] }
    let offset = scroll[group.id] ?? .zero
    let view =
      group.viewport ?? Rect(x: 0, y: 0, width: layout.canvas.width, height: layout.canvas.height)
    return virtual.indices(
      in: Rect(x: view.x + offset.x, y: view.y + offset.y, width: view.width, height: view.height))
  }

  /// The ids of the group's own drawn items: its listed members and its visible virtual ones.
  func drawnMembers(of group: Group) -> [String] {
    guard group.virtual != nil else { return group.items }
    return group.items
      + visibleVirtualIndices(of: group).map { VirtualItems.id(group: group.id, index: $0) }
  }
}
