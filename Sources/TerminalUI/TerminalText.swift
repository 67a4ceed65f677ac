import CWidth

/// The one filter between text and a terminal: every string a TenFoot program draws or prints
/// on a terminal goes through ``glyphs(_:)`` (the cell grid does it for each cell), so text
/// from a peer — a title, a typed value, a broker's message — is shown, never obeyed.
///
/// Per Unicode scalar, with widths from the C library's `wcwidth` in a UTF-8 locale (what
/// terminals and tmux use):
/// - printable, width 1 or 2 (CJK, most emoji): a glyph of that many cells;
/// - C0 and C1 controls, DEL, the line and paragraph separators and anything `wcwidth` calls
///   non-printable (unassigned code points included): the visible ``replacement`` `�`, one cell,
///   so no escape sequence (ESC, CSI, OSC, DCS, a C1 control) can reach the terminal;
/// - zero width (combining marks): joined to the glyph before it (at most
///   ``maximumMarksPerGlyph``), or put on a space when nothing precedes it;
/// - format characters (bidirectional controls, joiners, the soft hyphen, tags), variation
///   selectors and emoji skin-tone modifiers: left out. Terminals disagree on how wide the
///   sequences they build are (a ZWJ family, `❤️`), so only glyphs whose width every terminal
///   agrees on are sent; bidirectional controls would reorder the rest of the row.
public enum TerminalText {
  /// One cell's worth of text: a printable character and the columns it takes (1 or 2).
  public struct Glyph: Sendable, Hashable {
    /// The character, a base and its combining marks.
    public var character: Character
    /// 1, or 2 for a wide character.
    public var width: Int
  }

  /// Shown in place of a control or non-printable character.
  public static let replacement: Character = "\u{FFFD}"
  /// The most combining marks kept on one glyph (the rest are dropped).
  public static let maximumMarksPerGlyph = 4

  /// `text` as the glyphs a terminal draws (see the type's rules).
  ///
  /// - Complexity: O(n) in the length of `text`.
  public static func glyphs(_ text: String) -> [Glyph] {
    var glyphs: [Glyph] = []
    glyphs.reserveCapacity(text.utf8.count)
    var marks = 0
    for scalar in text.unicodeScalars {
      if scalar.value >= 0x20 && scalar.value < 0x7F {
        glyphs.append(Glyph(character: Character(scalar), width: 1))
        marks = 0
        continue
      }
      if isLeftOut(scalar) { continue }
      let width = columns(of: scalar)
      if width < 0 {
        glyphs.append(Glyph(character: replacement, width: 1))
        marks = 0
      } else if width == 0 {
        guard marks < maximumMarksPerGlyph else { continue }
        let base = glyphs.last?.character ?? " "
        var joined = String(base)
        joined.unicodeScalars.append(scalar)
        // Only a mark that stays in the same character (a grapheme) is kept.
        guard joined.count == 1, let character = joined.first else { continue }
        if glyphs.isEmpty {
          glyphs.append(Glyph(character: character, width: 1))
        } else {
          glyphs[glyphs.count - 1].character = character
        }
        marks += 1
      } else {
        glyphs.append(Glyph(character: Character(scalar), width: min(width, 2)))
        marks = 0
      }
    }
    return glyphs
  }

  /// The text a terminal would be sent for `text`: its glyphs, joined. With `newlines`, line
  /// feeds are kept (each line filtered on its own), for multi-line reports.
  public static func printable(_ text: String, newlines: Bool = false) -> String {
    if newlines {
      return text.split(separator: "\n", omittingEmptySubsequences: false)
        .map { printable(String($0)) }.joined(separator: "\n")
    }
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    return String(glyphs(text).map(\.character))
  }

  /// The columns `text` takes on a terminal.
  public static func width(_ text: String) -> Int {
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    return glyphs(text).reduce(0) { $0 + $1.width }
  }

  /// `text` filtered and cut to at most `width` columns at a glyph boundary, ending in `…`
  /// when cut (a wide glyph that would straddle the limit goes whole).
  public static func truncated(_ text: String, toWidth width: Int) -> String {
    guard width > 0 else { return "" }
    let all = glyphs(text)
    if all.reduce(0, { $0 + $1.width }) <= width { return String(all.map(\.character)) }
    var kept = ""
    var used = 0
    for glyph in all {
      if used + glyph.width > width - 1 { break }
      kept.append(glyph.character)
      used += glyph.width
    }
    return kept + "…"
  }

  /// The columns `scalar` takes: `wcwidth` in a UTF-8 locale, or an approximation from the
  /// scalar's Unicode properties where no UTF-8 locale is installed. -1: not printable.
  public static func columns(of scalar: Unicode.Scalar) -> Int {
    if isControl(scalar) { return -1 }
    let width = Int(tenfoot_wcwidth(scalar.value))
    return width >= -1 ? width : approximateColumns(of: scalar)
  }

  /// C0, DEL, C1 and the line and paragraph separators: what a terminal may obey.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
      || scalar.value == 0x2028 || scalar.value == 0x2029
  }

  /// Whether the terminal filter leaves `scalar` out (see the type's rules).
  static func isLeftOut(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x1F3FB...0x1F3FF: return true
    case 0x20...0x7E: return false
    default: return scalar.properties.generalCategory == .format
    }
  }

  /// Widths without a UTF-8 locale: marks 0, the East Asian wide and emoji blocks 2.
  static func approximateColumns(of scalar: Unicode.Scalar) -> Int {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    case .unassigned, .surrogate, .control, .lineSeparator, .paragraphSeparator: return -1
    default: break
    }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return 2
    default: return 1
    }
  }
}
