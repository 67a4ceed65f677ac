import FocusEngine

/// Why the domain refused a request, with its cause; nothing changed. The runtime maps each
/// case to a wire error code and writes the sentence for people.
public enum BrokerError: Error, Sendable, Equatable {
  /// The layout or patch is not valid (where and why).
  case invalidLayout(LayoutError)
  /// The layout has more items than the broker takes.
  case tooManyItems(count: Int, limit: Int)
  /// Input named no screen while none is registered.
  case noScreenRegistered
  /// Input named no screen while several are registered (their ids, sorted).
  case ambiguousScreen(known: [String])
  /// No session has this id (the registered ones, sorted).
  case unknownScreen(String, known: [String])
  /// The session was dropped because no screen kept it alive.
  case screenGone(String)
  /// Text input while no text field has focus (the engine's reason).
  case noTextField(reason: String)
  /// A programmatic focus request cannot be honoured.
  case focusDenied(FocusRequestError)
  /// A debugger dry run named an input that does not exist.
  case unknownDebugInput(String)
  /// The principal's role may not make this request (for this screen).
  case forbidden(AccessRefusal)
}
