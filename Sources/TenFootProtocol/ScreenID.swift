/// Rules for screen session ids, shared by every peer.
public enum ScreenID {
  /// The longest id accepted.
  public static let maxLength = 64

  /// Why `id` is not a valid screen id, or nil if it is. Ids are 1–64 characters of
  /// `A–Z a–z 0–9 . _ : -`, so they are safe in topics, file names and logs.
  public static func problem(with id: String) -> String? {
    if id.isEmpty { return "screen id is empty" }
    if id.utf8.count > maxLength { return "screen id is longer than \(maxLength) characters" }
    let allowed = id.utf8.allSatisfy { byte in
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x5F || byte == 0x3A
        || byte == 0x2D
    }
    return allowed ? nil : "screen id \"\(id)\" may only contain A-Z a-z 0-9 . _ : -"
  }
}
