/// One character cell of a terminal: what is shown and how.
///
/// A cell only ever holds a printable glyph: its initializer runs the character through
/// ``TerminalText`` (a control character becomes `�`). A wide glyph (CJK, most emoji) takes
/// two cells: the first holds it with ``width`` 2, the second is a continuation (width 0)
/// that draws nothing of its own; ``CellGrid`` keeps the pair together.
public struct Cell: Sendable, Hashable {
  /// The character shown, always printable.
  public private(set) var character: Character
  /// How it is drawn.
  public var style: Style
  /// The columns it takes: 1, 2 for a wide character, 0 for the second cell of a wide one.
  public private(set) var width: Int

  /// A cell showing `character`, filtered by ``TerminalText/glyphs(_:)``: a control shows as
  /// `�`, a character the filter leaves out (a format character) as a space.
  public init(_ character: Character = " ", style: Style = .plain) {
    self.style = style
    if character.isASCII, let scalar = character.unicodeScalars.first,
      scalar.value >= 0x20 && scalar.value < 0x7F
    {
      self.character = character
      width = 1
      return
    }
    let scalars = character.unicodeScalars
    if scalars.count == 1, let scalar = scalars.first, !TerminalText.isLeftOut(scalar) {
      // One scalar (box drawing, ▶, ♥, CJK): no string to build.
      let width = TerminalText.columns(of: scalar)
      if width != 0 {
        self.character = width < 0 ? TerminalText.replacement : character
        self.width = width < 0 ? 1 : min(width, 2)
        return
      }
    }
    let glyphs = TerminalText.glyphs(String(character))
    switch glyphs.count {
    case 0:
      self.character = " "
      width = 1
    case 1:
      self.character = glyphs[0].character
      width = glyphs[0].width
    default:
      self.character = TerminalText.replacement
      width = 1
    }
  }

  /// A cell for a glyph that ``TerminalText`` already produced.
  init(glyph: TerminalText.Glyph, style: Style) {
    character = glyph.character
    width = glyph.width
    self.style = style
  }

  /// A cell holding a character as is, unfiltered: a marker that is never drawn (a scratch
  /// grid's "transparent"), for code of this package only.
  package init(marker: Character) {
    character = marker
    style = .plain
    width = 1
  }

  /// The second cell of a wide character, in `style`.
  static func continuation(style: Style) -> Cell {
    var cell = Cell(" ", style: style)
    cell.width = 0
    return cell
  }

  /// Whether this is the second cell of a wide character.
  public var isContinuation: Bool { width == 0 }

  /// A plain space.
  public static let blank = Cell()
}
