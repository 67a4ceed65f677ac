import FocusEngine

/// What an app asks of the screen it runs: its answer to a frame, in the engine's terms.
public enum AppCommand: Sendable, Equatable {
  /// Change part of the layout (applied whole or not at all), maybe moving focus with it.
  case patch(LayoutPatch)
  /// Programmatic focus (SwiftUI's `FocusState`).
  case focus(FocusTarget)
  /// A whole new layout (a new page), as a screen registering it would.
  case replaceLayout(Layout)
}

/// An app's commands in answer to the frame with state sequence `stateSeq`, applied in order.
public struct AppReaction: Sendable, Equatable {
  /// The state sequence of the frame the app reacted to.
  public var stateSeq: UInt64
  /// What to do, in order.
  public var commands: [AppCommand]

  /// Whether an app answers `effect` (an activation, back, home), so the inputs after it wait
  /// for the app's reaction.
  public static func awaits(_ effect: FocusEffect) -> Bool {
    switch effect {
    case .activated, .back, .home: true
    default: false
    }
  }

  /// A reaction.
  public init(stateSeq: UInt64, commands: [AppCommand]) {
    self.stateSeq = stateSeq
    self.commands = commands
  }
}

/// The inputs a screen with an app holds after an activation, until the app's reaction to it
/// (or the deadline): on tvOS an app opens its view on select before the next press moves
/// focus, so `select right select` opens a view and moves inside it.
public struct ReactionHold: Sendable, Equatable {
  /// When the inputs go on without the app.
  public var deadline: BrokerInstant
  /// The state sequence that carried the activation: a reaction to an older frame does not
  /// release the hold.
  public var activationSeq: UInt64
  /// The activating input's reply, held too so its requester sees the focus after the
  /// reaction.
  public var token: UInt64
  /// That reply as applied (the focus then is replaced by the focus at release).
  public var ack: Acknowledgement
  /// Inputs that came while holding, oldest first.
  public var queued: [HeldInput] = []
}

/// A remote's input held for an app's reaction, with the token its reply is released under.
public struct HeldInput: Sendable, Equatable {
  /// Names the held request's reply for the runtime (`BrokerReply.held`).
  public var token: UInt64
  /// The input.
  public var input: RemoteInput
  /// The remote's key (see `BrokerRequest.input`).
  public var remote: String
  /// Who caused it.
  public var cause: FocusCause
}
