/// An input to the focus reducer.
public enum FocusEvent: Sendable, Equatable {
  /// A directional move (arrow key, swipe step).
  case move(Direction)
  /// The select button went down.
  case selectDown
  /// The select button went up.
  case selectUp
  /// The screen replaced its layout; the caller has validated it.
  ///
  /// Focus stays on the same id if it is still available; otherwise it recovers to the nearest
  /// available item (heading `.recovery`). `selected` keeps the ids that still exist, merged
  /// with the new items' `selected` flags.
  case replaceLayout(Layout)
}
