import FocusEngine
import TenFootProtocol

/// What the broker did with one input of this remote: its ack, typed again at the socket.
public struct InputAck: Sendable, Equatable {
  /// The engine's effects, in order.
  public var effects: [FocusEffect]
  /// The focused item afterwards (nil: nothing is focused).
  public var focused: String?
  /// Whether the focused item is a text field.
  public var editingText: Bool
  /// The screen the input went to.
  public var screen: String

  /// An ack with these parts.
  public init(
    effects: [FocusEffect], focused: String? = nil, editingText: Bool = false, screen: String = ""
  ) {
    self.effects = effects
    self.focused = focused
    self.editingText = editingText
    self.screen = screen
  }

  /// The ack a wire ack carries; effects this remote does not know (a newer broker's) are left
  /// out.
  init(wire: Tenfoot_V1_Ack) {
    self.init(
      effects: wire.effects.compactMap(FocusEffect.init(wire:)),
      focused: wire.hasFocused ? wire.focused : nil, editingText: wire.editingText,
      screen: wire.screenID)
  }
}
