import FocusEngine

/// A control request to the broker, in the domain's own terms: the runtime maps each wire
/// envelope to one of these (or refuses it at the edge if it cannot be mapped).
public enum BrokerRequest: Sendable, Equatable {
  /// A peer says hello: the broker answers with its epoch, name and screens.
  case hello
  /// A screen registers (or replaces) its layout; `app`: an app reacts to its activations
  /// from the start (one runs inside the screen, or one was attached before a restart).
  case register(screen: String, layout: Layout, app: Bool = false)
  /// A remote's timed input for `screen` (nil: the only screen), from the remote known as
  /// `remote` (the runtime names remotes by their connection: two remotes that give the same
  /// sender name still get their own timing state).
  case input(RemoteInput, screen: String?, remote: String, cause: FocusCause)
  /// A layout patch, applied whole or not at all.
  case patch(LayoutPatch, screen: String, cause: FocusCause)
  /// Programmatic focus.
  case focus(FocusTarget, screen: String, cause: FocusCause)
  /// A focus debugger question about a live session.
  case debug(DebugQuery, screen: String)
  /// A screen asks for its session's whole state; `app`: the requester runs the screen's app
  /// (activations then hold the inputs that follow until its reaction).
  case snapshot(screen: String, app: Bool = false)
  /// An app's commands in answer to a frame of `screen`.
  case react(AppReaction, screen: String, cause: FocusCause)
  /// A screen says it is alive.
  case heartbeat(screen: String)
  /// The broker's own clock: drop the sessions no screen kept alive for `grace` (answered
  /// `expired` with their ids). No peer makes it (the wire has no such request).
  case expire(grace: Duration)
}
