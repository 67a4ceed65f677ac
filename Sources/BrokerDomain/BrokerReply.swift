import FocusEngine

/// The broker's answer to one request, in the domain's terms (the runtime maps it to the wire).
public enum BrokerReply: Sendable, Equatable {
  /// The answer to hello.
  case welcome(Welcome)
  /// The request was applied (or changed nothing).
  case ack(Acknowledgement)
  /// A session's whole state. Boxed: inline, its 616 bytes (the session's whole focus state)
  /// would make every reply that size, and every reply and outcome copied on the input path
  /// (an acknowledgement's 50 bytes) pay for moving it.
  indirect case snapshot(SessionSnapshot)
  /// The focus debugger's answer.
  case debugReport(screen: String, DebugAnswer)
  /// The request was refused; nothing changed.
  case error(BrokerError)
  /// No reply yet: the request waits for `screen`'s app to react (``ReactionHold``); its
  /// reply comes later as a `BrokerEffect.release` with this token.
  case held(token: UInt64, screen: String)
  /// The answer to `expire`: the sessions dropped, sorted (the runtime logs them).
  case expired(screens: [String])
}

/// The broker's greeting.
public struct Welcome: Sendable, Equatable {
  /// The broker's epoch (changes on every start).
  public var epoch: UInt64
  /// The broker's name and version.
  public var name: String
  /// The registered screens, sorted.
  public var screens: [String]

  /// A greeting.
  public init(epoch: UInt64, name: String, screens: [String]) {
    self.epoch = epoch
    self.name = name
    self.screens = screens
  }
}

/// An applied request's result.
public struct Acknowledgement: Sendable, Equatable {
  /// The session it applied to.
  public var screen: String
  /// The session's state sequence after it.
  public var seq: UInt64
  /// The focused item after it (nil: none, or not reported).
  public var focused: String?
  /// What the engine did.
  public var effects: [FocusEffect] = []
  /// Whether a text field has focus (reported for input).
  public var editingText = false
  /// Whether an app reacts to the session (reported for a screen's heartbeat).
  public var app = false

  /// An acknowledgement.
  public init(
    screen: String, seq: UInt64, focused: String?, effects: [FocusEffect] = [],
    editingText: Bool = false
  ) {
    self.screen = screen
    self.seq = seq
    self.focused = focused
    self.effects = effects
    self.editingText = editingText
  }
}

/// A session's whole state at one sequence number: the engine state and the focused item's
/// parallax. A value (the engine state is copy-on-write), so carrying it costs nothing; the
/// runtime maps it to the wire snapshot.
public struct SessionSnapshot: Sendable, Equatable {
  /// The session id.
  public var screen: String
  /// The broker's epoch.
  public var epoch: UInt64
  /// The session's state sequence.
  public var seq: UInt64
  /// The engine state: layout, focus, display states, text values, scroll offsets.
  public var focus: FocusState
  /// The focused item's parallax.
  public var parallax: Parallax?
  /// What a screen reader says about the step that published it (a registration, a patch);
  /// nil for a snapshot asked for.
  public var announcement: Announcement?
  /// The virtual items whose content the app is asked for: every virtual group's whole wanted
  /// window (a registration, a snapshot asked for), or only the newly wanted ones (a patch).
  public var itemsInView: [VirtualRange]

  /// A snapshot that asks for every virtual group's whole wanted window.
  public init(screen: String, epoch: UInt64, seq: UInt64, focus: FocusState, parallax: Parallax?) {
    self.screen = screen
    self.epoch = epoch
    self.seq = seq
    self.focus = focus
    self.parallax = parallax
    itemsInView = focus.itemsInView
  }
}

/// The focus debugger's answer, typed; the runtime turns it into text for people.
public enum DebugAnswer: Sendable, Equatable {
  /// Why an item can or cannot take focus.
  case explanation(FocusState.Explanation)
  /// The Tab loop's stops, in order.
  case tabLoop([FocusState.TabStop])
  /// The group tree, one line per group.
  case groupTree([String])
  /// Where an input would take focus, and the effects it would have (nothing changed).
  case dryRun(focused: String?, moved: Bool, effects: [FocusEffect])
}
