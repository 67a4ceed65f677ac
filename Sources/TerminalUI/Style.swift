/// A 24-bit colour.
public struct RGB: Sendable, Hashable {
  /// Red, 0–255.
  public var red: UInt8
  /// Green, 0–255.
  public var green: UInt8
  /// Blue, 0–255.
  public var blue: UInt8

  /// Creates a colour from its components.
  public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// The nearest entry of the xterm 256-colour palette: the 6×6×6 colour cube (16–231,
  /// levels 0, 95, 135, 175, 215, 255) or the greyscale ramp (232–255, 8 + 10·i), whichever is
  /// closer in squared RGB distance. The 16 system colours are skipped: themes redefine them.
  public var ansi256Index: UInt8 {
    let levels = [0, 95, 135, 175, 215, 255]
    func nearestLevel(_ value: UInt8) -> Int {
      var best = 0
      for index in 1..<levels.count
      where abs(levels[index] - Int(value)) < abs(levels[best] - Int(value)) {
        best = index
      }
      return best
    }
    let (r, g, b) = (nearestLevel(red), nearestLevel(green), nearestLevel(blue))
    let cube = (levels[r], levels[g], levels[b])
    let average = (Int(red) + Int(green) + Int(blue)) / 3
    let greyIndex = max(0, min(23, (average - 8 + 5) / 10))
    let grey = 8 + 10 * greyIndex
    func distance(_ other: (Int, Int, Int)) -> Int {
      let dr = other.0 - Int(red)
      let dg = other.1 - Int(green)
      let db = other.2 - Int(blue)
      return dr * dr + dg * dg + db * db
    }
    if distance((grey, grey, grey)) < distance(cube) { return UInt8(232 + greyIndex) }
    return UInt8(16 + 36 * r + 6 * g + b)
  }
}

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
