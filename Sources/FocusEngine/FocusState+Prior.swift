extension FocusState {
  /// What a step changes of the facts a step's publication compares, besides the layout
  /// tables (`layout` and `index`): the focused item (with its position), the pressed item and
  /// the selection. Read against the tables the state had then, it answers what the whole
  /// state before the step would (display states, the focus description's groups, the
  /// parallax) without copying that state: a copy retains, and then releases, each of its
  /// tables (about 1,900 instructions a step), and makes each table the step writes copy
  /// itself.
  ///
  /// The tables are the state's own after the step when the step kept them (an event whose
  /// ``FocusEvent/keepsLayoutTables`` holds); a step that may change them keeps a copy of the
  /// whole state instead, and reads the prior on that.
  public struct Prior: Sendable, Equatable {
    /// The focused item.
    public let focused: String?
    /// Its position in the index.
    let focusedAt: Int?
    /// The item the select button was held down on.
    let pressed: String?
    /// The selected items.
    let selected: Set<String>
  }

  /// The facts a step may change that its publication compares (see ``Prior``).
  public var prior: Prior {
    Prior(focused: focused, focusedAt: focusedAt, pressed: pressed, selected: selected)
  }

  /// The display state `id` had at `prior`, read on this state's layout tables (which must be
  /// those of the state `prior` was taken from); nil for an unknown id.
  public func displayState(of id: String, at prior: Prior) -> FocusDisplayState? {
    guard let position = index.position(of: id) else { return nil }
    return displayState(
      at: position, focused: prior.focused, pressed: prior.pressed, selected: prior.selected)
  }

  /// The display state of the item focused at `prior` (nil if none), read at its position.
  public func focusedDisplayState(at prior: Prior) -> FocusDisplayState? {
    guard let position = prior.focusedAt else { return nil }
    return displayState(
      at: position, focused: prior.focused, pressed: prior.pressed, selected: prior.selected)
  }

  /// The display state now of the item focused at `prior` (nil if none), read at its position
  /// with no id looked up. This state must have the layout tables of the state `prior` was
  /// taken from (a step that kept them, see ``Prior``).
  public func displayStateOfFocused(at prior: Prior) -> FocusDisplayState? {
    guard let position = prior.focusedAt else { return nil }
    return displayState(at: position)
  }

  /// The display state the item focused now had at `prior` (nil if none is focused), read at
  /// its position with no id looked up; the same condition on the layout tables.
  public func priorDisplayStateOfFocused(at prior: Prior) -> FocusDisplayState? {
    guard let position = focusedAt else { return nil }
    return displayState(
      at: position, focused: prior.focused, pressed: prior.pressed, selected: prior.selected)
  }
}

extension FocusEvent {
  /// Whether the event leaves the layout tables (`layout` and `index`) as they are: all but a
  /// layout replacement, a patch, and the pointer's events (their reveal changes which items
  /// are focusable). A ``FocusState/Prior`` taken before it reads the state before it on the
  /// tables after it. `PriorTests` holds each event to this.
  public var keepsLayoutTables: Bool {
    switch self {
    case .replaceLayout, .applyPatch, .pointer, .pointerIdle: false
    case .move, .tab, .selectDown, .selectUp, .requestFocus, .cancelSelect, .text,
      .restoreMemory, .restoreText:
      true
    }
  }
}

extension RemoteInput {
  /// Whether the engine events the input makes all keep the layout tables
  /// (``FocusEvent/keepsLayoutTables``): all but a pointer's samples.
  public var keepsLayoutTables: Bool {
    switch self {
    case .button, .touch, .text: true
    case .pointer: false
    }
  }
}
