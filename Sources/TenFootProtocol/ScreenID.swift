import FocusEngine

/// Rules for screen session ids, shared by every peer.
public enum ScreenID {
  /// The longest id accepted.
  public static let maxLength = 64

  /// Why `id` is not a valid screen id, or nil if it is. Screen ids are ids by ``TextRules``
  /// (`A–Z a–z 0–9 - _ . : / @`) of 1–64 characters, so they are safe in topics, logs and
  /// terminals.
  public static func problem(with id: String) -> String? {
    TextRules.idProblem(id, maximumLength: maxLength).map { "screen id " + $0 }
  }
}
