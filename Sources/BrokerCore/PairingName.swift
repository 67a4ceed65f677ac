import FocusEngine

/// The rules for a peer's name in the allow-list, whether it arrives in a pairing request or
/// from `tenfoot-broker remotes add --name`: free text by ``TextRules``, at most 40 characters.
public enum PairingName {
  /// The longest name, in characters.
  public static let maximumLength = 40

  /// Why `name` is refused, or nil if it is a fine name.
  public static func problem(_ name: String) -> String? {
    if name.count > maximumLength {
      return "\(name.count) characters (at most \(maximumLength))"
    }
    return TextRules.textProblem(name)
  }

  /// The name shown for a pairing (checked by ``problem(_:)``): "remote" if none.
  public static func clean(_ name: String) -> String {
    name.isEmpty ? "remote" : name
  }
}
