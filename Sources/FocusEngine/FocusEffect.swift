/// An outcome of the focus reducer, as data for the shell to publish or act on.
public enum FocusEffect: Sendable, Equatable {
  /// Focus moved (or was placed, or lost).
  case focusChanged(FocusUpdateContext)
  /// A directional move found no candidate: the edge "bump". The state did not change.
  case movementFailed(Direction)
  /// The select button went down on this (focused) item.
  case highlighted(String)
  /// The select button went up on this highlighted item: it was activated.
  case activated(String)
  /// A toggle item's selected flag flipped.
  case selectionChanged(id: String, selected: Bool)
}
