import FocusEngine

/// What the broker keeps of a screen session across restarts: plain values a store writes
/// (one row or one record per screen) and the domain applies when the screen registers again.
public struct SessionRecord: Sendable, Equatable {
  /// The session id.
  public var screen: String
  /// The focused item, if any.
  public var focused: String?
  /// The selected items, sorted.
  public var selected: [String]
  /// Text field values by item id.
  public var text: [String: String]
  /// What the groups remember (last focused items).
  public var memory: FocusMemory

  /// A record.
  public init(
    screen: String, focused: String?, selected: [String], text: [String: String] = [:],
    memory: FocusMemory = FocusMemory()
  ) {
    self.screen = screen
    self.focused = focused
    self.selected = selected
    self.text = text
    self.memory = memory
  }

  /// `layout` as this record restores it: the remembered selections, and the remembered focus
  /// if that item is still there and available. Text is not written into the layout's declared
  /// values (a later layout declaring the same values would then change them, and a changed
  /// declared value overwrites the session's text): it is restored with
  /// ``FocusEvent/restoreText(_:)``.
  public func restoring(_ layout: Layout) -> Layout {
    var restored = layout
    let selected = Set(self.selected)
    var focusable = false
    for index in restored.items.indices {
      let id = restored.items[index].id
      restored.items[index].selected = selected.contains(id)
      if id == focused, restored.items[index].available { focusable = true }
    }
    if focusable { restored.initialFocus = focused }
    return restored
  }
}
