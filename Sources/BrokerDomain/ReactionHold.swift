import FocusEngine

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
