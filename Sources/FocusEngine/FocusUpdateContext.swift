/// What a focus update did: where focus was, where it went and why (`UIFocusUpdateContext`).
public struct FocusUpdateContext: Sendable, Equatable {
  /// The item focused before the update, if any.
  public var previous: String?
  /// The item focused after the update, if any.
  public var next: String?
  /// Why focus moved.
  public var heading: FocusHeading

  /// Creates an update context.
  public init(previous: String?, next: String?, heading: FocusHeading) {
    self.previous = previous
    self.next = next
    self.heading = heading
  }
}
