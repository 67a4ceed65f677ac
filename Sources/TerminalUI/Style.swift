import Colour

/// How a cell is drawn: optional colours and the attributes every terminal shows.
public struct Style: Sendable, Hashable {
  /// Foreground colour; nil for the terminal's default.
  public var foreground: RGB?
  /// Background colour; nil for the terminal's default.
  public var background: RGB?
  /// Bold (or bright) text.
  public var bold: Bool
  /// Dim (faint) text.
  public var dim: Bool
  /// Foreground and background swapped.
  public var inverse: Bool
  /// Underlined text.
  public var underline: Bool

  /// Creates a style; the default is the terminal's plain text.
  public init(
    foreground: RGB? = nil, background: RGB? = nil, bold: Bool = false, dim: Bool = false,
    inverse: Bool = false, underline: Bool = false
  ) {
    self.foreground = foreground
    self.background = background
    self.bold = bold
    self.dim = dim
    self.inverse = inverse
    self.underline = underline
  }

  /// Plain text in the terminal's colours.
  public static let plain = Style()

  /// The select-graphic-rendition sequence that sets exactly this style from any state:
  /// `ESC[0;…m`, starting with a reset so no attribute of the previous style leaks through.
  public func sgr(_ mode: ColorMode) -> String {
    var codes = ["0"]
    if bold { codes.append("1") }
    if dim { codes.append("2") }
    if underline { codes.append("4") }
    if inverse { codes.append("7") }
    if let foreground { codes += Self.colorCodes(foreground, base: 38, mode) }
    if let background { codes += Self.colorCodes(background, base: 48, mode) }
    return "\u{1B}[" + codes.joined(separator: ";") + "m"
  }

  private static func colorCodes(_ color: RGB, base: Int, _ mode: ColorMode) -> [String] {
    switch mode {
    case .truecolor: ["\(base)", "2", "\(color.red)", "\(color.green)", "\(color.blue)"]
    case .ansi256: ["\(base)", "5", "\(color.ansi256Index)"]
    case .monochrome: []
    }
  }
}
