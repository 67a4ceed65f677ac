import FocusEngine

extension Layout {
  /// The layout without the content apps supplied for virtual items: what the page's layout
  /// message holds. The page gets a virtual item's content with the frames that show it
  /// (``WebMessages/WindowJSON``), so a supply does not resend and rebuild the whole layout.
  /// O(groups) when some group holds content, O(1) copy-on-write otherwise.
  var virtualShape: Layout {
    guard groups.contains(where: \.holdsVirtualContent) else { return self }
    var shape = self
    shape.groups = groups.map(\.virtualShape)
    return shape
  }
}

extension Group {
  /// Whether this group or one inside it is virtual with supplied content.
  fileprivate var holdsVirtualContent: Bool {
    virtual.map { !$0.content.isEmpty } == true || groups.contains(where: \.holdsVirtualContent)
  }

  /// The group, and those inside it, without supplied virtual content.
  fileprivate var virtualShape: Group {
    guard holdsVirtualContent else { return self }
    var shape = self
    shape.virtual = virtual?.shape
    shape.groups = groups.map(\.virtualShape)
    return shape
  }
}
