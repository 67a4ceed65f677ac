/// What a focus update did: where focus was, where it went, why, and which input caused it
/// (`UIFocusUpdateContext`).
public struct FocusUpdateContext: Sendable, Equatable {
  /// The item focused before the update, if any.
  public var previous: String?
  /// The item focused after the update, if any (nil: nothing can take focus).
  public var next: String?
  /// Why focus moved.
  public var heading: FocusHeading
  /// The input that caused the update, when the shell passed one.
  public var cause: FocusCause?

  /// Creates an update context.
  public init(
    previous: String?, next: String?, heading: FocusHeading, cause: FocusCause? = nil
  ) {
    self.previous = previous
    self.next = next
    self.heading = heading
    self.cause = cause
  }
}
