/// What the broker keeps of one screen session across restarts (crash included): plain values,
/// no protobuf and no engine types, so the broker's domain can hand them over as they are.
public struct SessionRow: Sendable, Equatable, Codable {
  /// The screen session's id (the screen's `--id`).
  public var screenID: String
  /// The focused item, if any.
  public var focused: String?
  /// The selected (toggled, "favourite") items, sorted.
  public var selected: [String]
  /// Text field values by item id.
  public var text: [String: String]
  /// Group id → the item focused there last.
  public var remembered: [String: String]
  /// Group id → the item focused last among the group's own items.
  public var rememberedOwn: [String: String]

  /// Creates a record; `selected` is kept sorted so equal states give equal records.
  public init(
    screenID: String, focused: String?, selected: [String], text: [String: String] = [:],
    remembered: [String: String] = [:], rememberedOwn: [String: String] = [:]
  ) {
    self.screenID = screenID
    self.focused = focused
    self.selected = selected.sorted()
    self.text = text
    self.remembered = remembered
    self.rememberedOwn = rememberedOwn
  }
}
