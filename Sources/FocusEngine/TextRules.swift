/// What a peer may put in an id and in free text: the rules every door (layouts, control
/// messages, pairing, catalog files) applies before a string is stored, drawn or logged. Pure.
///
/// **Ids** (screen, item, group, guide, sender, remote names): 1 to ``maximumIDLength``
/// characters (a field may set a lower bound) of `A–Z a–z 0–9 - _ . : / @`. Ids reach topics,
/// file names, logs and terminals, so they hold nothing that any of those interprets.
///
/// **Free text** (titles, labels, text field values, layer names, pairing names): any Unicode
/// text (decoders already refuse invalid UTF-8) except control characters — C0 `U+0000–U+001F`
/// (tab and newline included: no field is multi-line), DEL `U+007F`, C1 `U+0080–U+009F` — the
/// line and paragraph separators `U+2028`/`U+2029`, and unpaired bidirectional controls: every
/// embedding or override (`U+202A LRE`, `U+202B RLE`, `U+202D LRO`, `U+202E RLO`) must be
/// closed by `U+202C PDF`, and every isolate (`U+2066 LRI`, `U+2067 RLI`, `U+2068 FSI`) by
/// `U+2069 PDI`, properly nested and at most ``maximumBidiDepth`` deep, so text cannot reorder
/// what is drawn after it. The marks `U+200E`, `U+200F` and `U+061C` need no pair.
public enum TextRules {
  /// The longest id, in characters (ids are ASCII, so bytes too).
  public static let maximumIDLength = 128
  /// The deepest nesting of bidirectional embeddings and isolates free text may use.
  public static let maximumBidiDepth = 16
  /// The characters an id may use besides ASCII letters and digits.
  public static let idPunctuation = "-_.:/@"
  /// The id alphabet for messages: `A-Z a-z 0-9 - _ . : / @`.
  public static let idAlphabet = "A-Z a-z 0-9 - _ . : / @"

  /// Why `id` is not a valid id, or nil if it is; the reason names the first offending
  /// character by code point and position, never by echoing it.
  ///
  /// - Complexity: O(n) in the length of `id`.
  public static func idProblem(_ id: String, maximumLength: Int = maximumIDLength) -> String? {
    if id.isEmpty { return "is empty" }
    // A valid id in one pass over its bytes (every id character is ASCII, one byte); the
    // scalar walk below only runs to name what is wrong.
    let valid = id.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.count <= maximumLength && bytes.allSatisfy(isIDByte)
    }
    if valid == true { return nil }
    for (offset, scalar) in id.unicodeScalars.enumerated() where !isIDScalar(scalar) {
      return "contains \(codePoint(scalar)) at position \(offset) (allowed: \(idAlphabet))"
    }
    // Only ASCII remains here, so the byte count is the character count.
    let length = id.utf8.count
    if length > maximumLength {
      return "is \(length) characters long (at most \(maximumLength))"
    }
    return nil
  }

  /// Like ``idProblem(_:maximumLength:)``, but also accepts a virtual item's id
  /// `GROUP#INDEX` (``VirtualItems/id(group:index:)``) whose group part is a valid id, and
  /// `GROUP#=KEY` (``VirtualItems/id(group:key:)``) whose group and key are.
  public static func itemIDProblem(_ id: String, maximumLength: Int = maximumIDLength)
    -> String?
  {
    if let (group, _) = VirtualItems.parse(id), !group.isEmpty,
      idProblem(String(group), maximumLength: maximumLength) == nil
    {
      return nil
    }
    if let (group, key) = VirtualItems.parseKey(id), !group.isEmpty,
      idProblem(String(group), maximumLength: maximumLength) == nil,
      idProblem(String(key)) == nil
    {
      return nil
    }
    return idProblem(id, maximumLength: maximumLength)
  }

  /// Whether `byte`, one byte of UTF-8, is an id character (a byte of a longer scalar never is).
  static func isIDByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
      UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "@"):
      true
    default: false
    }
  }

  /// Whether `scalar` may appear in an id.
  public static func isIDScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "A"..."Z", "a"..."z", "0"..."9", "-", "_", ".", ":", "/", "@": true
    default: false
    }
  }

  /// Why `text` is not acceptable free text, or nil if it is (see the type's rules); the
  /// reason names the first offending character by code point and position.
  ///
  /// - Complexity: O(n) in the length of `text`.
  public static func textProblem(_ text: String) -> String? {
    // Fast path: printable ASCII needs no further look.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
    var open: [Bidi] = []
    for (offset, scalar) in text.unicodeScalars.enumerated() {
      if isControl(scalar) || scalar == "\u{2028}" || scalar == "\u{2029}" {
        return "contains control character \(codePoint(scalar)) at position \(offset)"
      }
      guard let kind = bidi(scalar) else { continue }
      switch kind {
      case .embedding, .isolate:
        open.append(kind)
        if open.count > maximumBidiDepth {
          return
            "nests bidirectional controls deeper than \(maximumBidiDepth) at position \(offset)"
        }
      case .popEmbedding, .popIsolate:
        guard open.last == (kind == .popEmbedding ? .embedding : .isolate) else {
          return "has an unpaired bidirectional control \(codePoint(scalar)) at position \(offset)"
        }
        open.removeLast()
      }
    }
    if !open.isEmpty {
      return "leaves \(open.count) bidirectional control(s) unclosed"
    }
    return nil
  }

  /// Whether `scalar` is a C0 or C1 control character or DEL.
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
  }

  /// `U+001B` style.
  static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  private enum Bidi {
    case embedding, isolate, popEmbedding, popIsolate
  }

  private static func bidi(_ scalar: Unicode.Scalar) -> Bidi? {
    switch scalar.value {
    case 0x202A, 0x202B, 0x202D, 0x202E: .embedding
    case 0x202C: .popEmbedding
    case 0x2066, 0x2067, 0x2068: .isolate
    case 0x2069: .popIsolate
    default: nil
    }
  }
}
