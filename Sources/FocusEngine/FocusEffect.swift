/// An outcome of the focus reducer, as data for the shell to publish or act on.
public enum FocusEffect: Sendable, Equatable {
  /// Focus moved (or was placed, or lost).
  case focusChanged(FocusUpdateContext)
  /// A directional move or Tab found no destination: the edge "bump". The state did not
  /// change.
  case movementFailed(FocusHeading)
  /// The select button went down on this (focused) item.
  case highlighted(String)
  /// The select button went up on this highlighted item: it was activated.
  case activated(String)
  /// A toggle item's selected flag flipped (or selection followed focus).
  case selectionChanged(id: String, selected: Bool)
  /// A scrolling group's offset changed to keep the focused item visible.
  case scrolled(group: String, offset: Point)
  /// A programmatic focus request could not be honoured; focus did not change.
  case focusRequestDenied(FocusRequestError)
  /// A layout or patch was invalid; nothing changed.
  case layoutRejected(LayoutError)
  /// A text field's value changed.
  case textChanged(id: String, value: String)
  /// Text input arrived while no text field had focus (or was too long); nothing changed.
  case textRejected(String)
  /// Menu/Back was pressed: the screen closes what is open (or leaves).
  case back
  /// TV/Home was pressed: the screen goes to its home.
  case home
  /// Play/Pause was pressed on this item (nil: nothing focused).
  case playPause(String?)
  /// Select was held down long on this item: show its context menu (it was not activated).
  case contextMenu(String)
  /// A button was tapped twice within the double-tap window.
  case doubleTap(RemoteButton)
  /// The items `range` of virtual group `group` came near the window in view: the app is
  /// asked for their content (see ``VirtualWant``).
  case itemsInView(group: String, range: Range<Int>)
}

/// Why a programmatic focus request cannot be honoured.
public struct FocusRequestError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kinds of refusal.
  public enum Reason: String, Sendable, Hashable, CaseIterable {
    /// No item or group has this id.
    case unknown
    /// The item cannot take focus (unavailable or in a disabled group), or the group holds
    /// no focusable item.
    case unavailable
    /// Focus is trapped in a modal group that does not contain the target.
    case outsideTrappingGroup
    /// The id names both an item and a group.
    case ambiguous
  }

  /// The kind of refusal.
  public var reason: Reason
  /// The id the request named.
  public var target: String
  /// For people.
  public var message: String

  /// Creates an error.
  public init(_ reason: Reason, target: String, message: String) {
    self.reason = reason
    self.target = target
    self.message = message
  }

  /// `reason: message`.
  public var description: String { "\(reason.rawValue): \(message)" }
}
