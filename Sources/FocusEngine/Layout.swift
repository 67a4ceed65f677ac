/// One focusable item on a screen.
public struct Item: Sendable, Hashable {
  /// Unique within the layout.
  public var id: String
  /// Text shown on the item.
  public var title: String
  /// Frame in canvas points.
  public var frame: Rect
  /// Whether the item can take focus at all.
  public var available: Bool
  /// Whether activating the item flips its `selected` flag (toggle items, the default).
  public var toggles: Bool
  /// Initial selected flag.
  public var selected: Bool

  /// Creates an item.
  public init(
    id: String, title: String = "", frame: Rect, available: Bool = true, toggles: Bool = true,
    selected: Bool = false
  ) {
    self.id = id
    self.title = title
    self.frame = frame
    self.available = available
    self.toggles = toggles
    self.selected = selected
  }
}

/// A container of items and nested groups (a focus group).
public struct Group: Sendable, Hashable {
  /// Unique among groups of the layout.
  public var id: String
  /// Ids of the items directly in this group, in declaration order.
  public var items: [String]
  /// Nested groups.
  public var groups: [Group]

  /// Creates a group.
  public init(id: String, items: [String] = [], groups: [Group] = []) {
    self.id = id
    self.items = items
    self.groups = groups
  }
}

/// A screen's layout: the canvas, its items and the group tree.
public struct Layout: Sendable, Hashable {
  /// Canvas size in points.
  public var canvas: Size
  /// All items, in declaration (reading) order.
  public var items: [Item]
  /// Top-level groups.
  public var groups: [Group]
  /// The item focused first, if any; otherwise the first available item in reading order.
  public var initialFocus: String?

  /// Creates a layout.
  public init(canvas: Size = .tv, items: [Item], groups: [Group] = [], initialFocus: String? = nil)
  {
    self.canvas = canvas
    self.items = items
    self.groups = groups
    self.initialFocus = initialFocus
  }
}
