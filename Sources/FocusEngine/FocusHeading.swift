/// Why focus moved: the heading of a focus update (UIKit's `UIFocusHeading` plus causes).
public enum FocusHeading: String, Sendable, Hashable, CaseIterable {
  /// An arrow or swipe upwards.
  case up
  /// An arrow or swipe downwards.
  case down
  /// An arrow or swipe to the left.
  case left
  /// An arrow or swipe to the right.
  case right
  /// Tab: the next group in the Tab loop.
  case next
  /// Shift-Tab: the previous group in the Tab loop.
  case previous
  /// A programmatic focus request.
  case programmatic
  /// The focused item vanished or became unavailable, and focus moved to a neighbour.
  case recovery
  /// Focus was placed for the first time (the initial-focus rule).
  case initial
  /// The pointer moved onto the item (or a flick landed on it).
  case pointer

  /// The heading of a directional move.
  public init(_ direction: Direction) {
    switch direction {
    case .up: self = .up
    case .down: self = .down
    case .left: self = .left
    case .right: self = .right
    }
  }
}
