import FocusEngine

/// Work the runtime carries out after the domain handled a request: plain data, in order.
public enum BrokerEffect: Sendable, Equatable {
  /// Publish a session's new state to its screens.
  case publish(Publication)
  /// Make a session's durable values durable before the reply is sent.
  case persist(SessionRecord)
  /// Bind screen id `screen` to the screen key `key` (hex) on the allow-list: it registered an
  /// id no key owned, and owns it from now on.
  case bind(screen: String, key: String)
  /// The reply of a request held earlier (``BrokerReply/held(token:screen:)``), now due.
  case release(token: UInt64, reply: BrokerReply)
}

/// A state message for a session's subscribers.
public enum Publication: Sendable, Equatable {
  /// The whole state (after a registration or a patch: deltas never carry layouts). Boxed, as
  /// `BrokerReply.snapshot` is: inline it would make every effect the size of a snapshot.
  indirect case snapshot(SessionSnapshot)
  /// What changed since the previous sequence number.
  case change(StateChange)

  /// The session published to.
  public var screen: String {
    switch self {
    case .snapshot(let snapshot): snapshot.screen
    case .change(let change): change.screen
    }
  }
}

/// One step of a session: what changed and why.
public struct StateChange: Sendable, Equatable {
  /// The session id.
  public var screen: String
  /// The broker's epoch.
  public var epoch: UInt64
  /// The session's new state sequence.
  public var seq: UInt64
  /// The focused item after the step.
  public var focused: String?
  /// The items whose display state changed, with their new state.
  public var changed: [ItemStateChange]
  /// What the engine did.
  public var effects: [FocusEffect]
  /// The focused item's parallax after the step.
  public var parallax: Parallax?
  /// Text fields whose value changed, with the new value.
  public var text: [String: String]
  /// Whether a text field has focus.
  public var editingText: Bool
  /// The request that caused the step.
  public var cause: FocusCause
  /// What a screen reader says about the step (nil: nothing).
  public var announcement: Announcement?
  /// The session's pointer, when the step changed it (nil: unchanged).
  public var pointer: PointerPresentation? = nil
}

/// An item's new display state.
public struct ItemStateChange: Sendable, Equatable {
  /// The item id.
  public var id: String
  /// Its display state now.
  public var state: FocusDisplayState

  /// A change of `id` to `state`.
  public init(id: String, state: FocusDisplayState) {
    self.id = id
    self.state = state
  }
}
