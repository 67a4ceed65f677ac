/// An input to the focus reducer.
public enum FocusEvent: Sendable, Equatable {
  /// A directional move (arrow key, swipe step).
  case move(Direction)
  /// Tab (`.next`) or Shift-Tab (`.previous`): the next or previous group in the Tab loop.
  case tab(TabDirection)
  /// The select button went down.
  case selectDown
  /// The select button went up.
  case selectUp
  /// A programmatic focus request (SwiftUI's `FocusState` binding set by the app).
  case requestFocus(FocusTarget)
  /// The screen replaced its layout.
  ///
  /// An invalid layout is rejected (``FocusEffect/layoutRejected(_:)``) and nothing changes.
  /// Focus stays on the same id if it is still focusable; otherwise it recovers (heading
  /// `.recovery`): after a directional input to the item nearest the vanished item's last
  /// frame, otherwise to the primary item of the nearest enclosing group that still exists,
  /// otherwise by the initial-focus rule. Selections, group memories and scroll offsets keep
  /// the ids that remain.
  ///
  /// A text field keeps its session text while its declared `value` stays the same; when the
  /// new layout declares a different `value`, the text becomes it (the app's write wins, even
  /// over the remote's typing into the focused field), with a
  /// ``FocusEffect/textChanged(id:value:)`` after the focus effects unless the text already was
  /// the new value.
  case replaceLayout(Layout)
  /// The screen changed part of its layout; applied as ``replaceLayout(_:)`` of the result.
  case applyPatch(LayoutPatch)
  /// A held select press ends without activating (a long press became a context menu).
  case cancelSelect
  /// Text typed into the focused text field.
  case text(TextEdit)
  /// A pointer sample resolved to the canvas (see ``PointerTracker``): the pointer shows and
  /// moves, the item under it takes focus (heading `pointer`), a click activates it, a fast
  /// release flicks. A directional input afterwards hides the pointer.
  case pointer(PointerSample)
  /// The remote's clock now: hides the pointer if it has been idle for the layout's
  /// `pointerIdleTimeout`.
  case pointerIdle(at: UInt64)
  /// Seeds the groups' remembered items (after a broker restart, from its records). Entries
  /// naming groups or items that no longer exist, or items outside their group, are ignored.
  case restoreMemory(FocusMemory)
  /// Seeds text fields' session text (after a broker restart, from its records) without
  /// changing their declared values, so a layout that declares the same values again keeps
  /// it. Ids that are not text fields, or text over ``Layout/maximumTextLength``, are ignored.
  /// No effects.
  case restoreText([String: String])
}

/// What the groups remember: the item focused last in each group, for entering it again.
public struct FocusMemory: Sendable, Hashable, Codable {
  /// Group id → the item focused last anywhere inside it.
  public var lastFocused: [String: String]
  /// Group id → the item focused last among the group's own items (its Tab stop).
  public var lastFocusedOwn: [String: String]

  /// Creates a memory.
  public init(lastFocused: [String: String] = [:], lastFocusedOwn: [String: String] = [:]) {
    self.lastFocused = lastFocused
    self.lastFocusedOwn = lastFocusedOwn
  }
}

/// An edit of a text field's value.
public enum TextEdit: Sendable, Hashable {
  /// Replaces the value.
  case set(String)
  /// Adds to the end of the value.
  case append(String)
  /// Empties the value.
  case clear
}

/// The direction of a Tab press.
public enum TabDirection: String, Sendable, Hashable, CaseIterable {
  /// Tab.
  case next
  /// Shift-Tab.
  case previous
}

/// What a programmatic focus request names.
public enum FocusTarget: Sendable, Hashable {
  /// An item by id.
  case item(String)
  /// A group by id: focus goes to its primary item.
  case group(String)
  /// An id that may name an item or a group; ambiguous if it names both.
  case any(String)
}

/// Who caused a focus update: the input message that led to it.
public struct FocusCause: Sendable, Hashable {
  /// The sending peer's name.
  public var sender: String
  /// The sender's message sequence number.
  public var sequence: UInt64

  /// Creates a cause.
  public init(sender: String, sequence: UInt64) {
    self.sender = sender
    self.sequence = sequence
  }
}
