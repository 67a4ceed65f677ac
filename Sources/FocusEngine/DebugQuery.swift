/// What the focus debugger is asked about a live session, by a remote (`tenfoot-remote
/// focus debug`) and answered by the broker's domain; `DebugQuery+Wire.swift` (TenFootProtocol)
/// maps it to and from the wire.
public enum DebugQuery: Sendable, Equatable {
  /// Why an item can or cannot take focus.
  case explainItem(String)
  /// The Tab loop's stops.
  case tabLoop
  /// The group tree.
  case groupTree
  /// Where focus would go on an input given by name (`FocusInput`'s names; the broker refuses
  /// a name it does not know).
  case dryRun(String)
}
