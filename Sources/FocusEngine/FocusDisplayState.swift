/// The five visual focus states of tvOS (HIG, "Focus and selection").
///
/// Derived, never stored: see `FocusState.displayState(of:)`.
public enum FocusDisplayState: String, Sendable, Hashable, CaseIterable {
  /// Can take focus but does not have it.
  case unfocused
  /// Has focus.
  case focused
  /// Has focus and the select button is held down on it.
  case highlighted
  /// Activated or toggled (a filled heart), shown while it does not have focus.
  case selected
  /// Cannot take focus.
  case unavailable
}
