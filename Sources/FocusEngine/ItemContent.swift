/// What an item shows beyond its title: the app's words, an image and a colour.
///
/// The engine never reads these; they travel with the layout so every renderer (terminal,
/// web, SVG) and the announcer can draw and say them. Every text follows the layout's text
/// rules; `image` and `accent` follow ``ItemContent/imageProblem(_:)`` and
/// ``ItemContent/accentProblem(_:)``.
public struct ItemContent: Sendable, Hashable {
  /// A second line under the title (a year, a channel, a short description).
  public var subtitle: String?
  /// Longer text, drawn where the renderer has room (a detail page's synopsis).
  public var body: String?
  /// A short tag drawn on the item (the app's words: "New", "Coming soon", "4K").
  public var badge: String?
  /// The item's image: a relative path inside the app's asset directory (`posters/dune.png`),
  /// which the screen serves, or an `https:` URL, which only the web page loads.
  public var image: String?
  /// The item's accent colour, `#rrggbb`.
  public var accent: String?

  /// Content with the given parts.
  public init(
    subtitle: String? = nil, body: String? = nil, badge: String? = nil, image: String? = nil,
    accent: String? = nil
  ) {
    self.subtitle = subtitle
    self.body = body
    self.badge = badge
    self.image = image
    self.accent = accent
  }

  /// Whether nothing is set.
  public var isEmpty: Bool {
    subtitle == nil && body == nil && badge == nil && image == nil && accent == nil
  }

  /// The longest image reference, in bytes.
  public static let maximumImageLength = 2048

  /// Why `image` is not an image reference, or nil when it is one: either an `https://` URL of
  /// printable ASCII without spaces, or a relative path of `/`-separated parts made of
  /// `A-Z a-z 0-9 . _ -` where no part is empty, `.` or `..` (so it can never leave the asset
  /// directory, whatever the renderer's platform).
  public static func imageProblem(_ image: String) -> String? {
    if image.utf8.count > maximumImageLength {
      return "\(image.utf8.count) bytes (at most \(maximumImageLength))"
    }
    if image.hasPrefix("https://") {
      let rest = image.utf8.dropFirst("https://".count)
      guard !rest.isEmpty, rest.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x5C }) else {
        return "must be an https: URL of printable ASCII without spaces or backslashes"
      }
      return nil
    }
    if image.contains(":") {
      return "must be a path inside the app's asset directory or an https: URL"
    }
    for part in image.split(separator: "/", omittingEmptySubsequences: false) {
      if part.isEmpty {
        return "must be a relative path without empty parts (no leading /, no //)"
      }
      if part == "." || part == ".." {
        return "must stay inside the app's asset directory (no . or .. parts)"
      }
      let allowed = part.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
          || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x5F || byte == 0x2D
      }
      if !allowed { return "path parts may use only A-Z a-z 0-9 . _ -" }
    }
    return nil
  }

  /// Why `accent` is not a `#rrggbb` colour, or nil when it is one.
  public static func accentProblem(_ accent: String) -> String? {
    let bytes = Array(accent.utf8)
    guard bytes.count == 7, bytes[0] == 0x23,
      bytes.dropFirst().allSatisfy({
        ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || ($0 >= 0x61 && $0 <= 0x66)
      })
    else { return "must be a colour written #rrggbb" }
    return nil
  }

  /// The accent's red, green and blue (0–255), or nil when unset or malformed.
  public var accentRGB: (red: UInt8, green: UInt8, blue: UInt8)? {
    guard let accent, Self.accentProblem(accent) == nil,
      let value = UInt32(accent.dropFirst(), radix: 16)
    else { return nil }
    return (UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
  }
}
