import FocusEngine

extension Layout {
  /// The engine layout a wire layout describes (not yet validated: call `validate()`).
  public init(wire: Tenfoot_V1_Layout) {
    self.init(
      canvas: wire.hasCanvas
        ? Size(width: wire.canvas.width, height: wire.canvas.height) : .tv,
      items: wire.items.map { item in
        Item(
          id: item.id, title: item.title,
          frame: Rect(
            x: item.frame.x, y: item.frame.y, width: item.frame.width,
            height: item.frame.height),
          available: !item.unavailable, toggles: !item.momentary, selected: item.selected)
      },
      groups: wire.groups.map(Group.init(wire:)),
      initialFocus: wire.initialFocus.isEmpty ? nil : wire.initialFocus)
  }
}

extension Group {
  /// The engine group a wire group describes.
  public init(wire: Tenfoot_V1_Group) {
    self.init(id: wire.id, items: wire.items, groups: wire.groups.map(Group.init(wire:)))
  }
}

extension Tenfoot_V1_Layout {
  /// The wire form of an engine layout.
  public init(_ layout: Layout) {
    self.init()
    canvas.width = layout.canvas.width
    canvas.height = layout.canvas.height
    items = layout.items.map { item in
      var wire = Tenfoot_V1_Item()
      wire.id = item.id
      wire.title = item.title
      wire.frame.x = item.frame.x
      wire.frame.y = item.frame.y
      wire.frame.width = item.frame.width
      wire.frame.height = item.frame.height
      wire.unavailable = !item.available
      wire.momentary = !item.toggles
      wire.selected = item.selected
      return wire
    }
    groups = layout.groups.map(Tenfoot_V1_Group.init)
    initialFocus = layout.initialFocus ?? ""
  }
}

extension Tenfoot_V1_Group {
  /// The wire form of an engine group.
  public init(_ group: Group) {
    self.init()
    id = group.id
    items = group.items
    groups = group.groups.map(Tenfoot_V1_Group.init)
  }
}
