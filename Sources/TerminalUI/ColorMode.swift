/// How many colours the terminal shows, which decides how ``CellGrid`` encodes a ``Style``.
public enum ColorMode: String, Sendable, Hashable, CaseIterable {
  /// 24-bit colour: `ESC[38;2;r;g;bm`.
  case truecolor
  /// The xterm 256-colour palette: `ESC[38;5;nm`, the nearest of the 6×6×6 cube and the
  /// greyscale ramp.
  case ansi256
  /// No colour at all; bold, dim, inverse and underline are kept, so states stay distinct.
  case monochrome

  /// Picks the mode for an output, in this order: `NO_COLOR` set and non-empty (no-color.org)
  /// → monochrome; not a terminal, or `TERM=dumb` → monochrome; `COLORTERM` of `truecolor` or
  /// `24bit` → truecolor; `TERM` containing `256color` → ansi256; otherwise ansi256, which
  /// every terminal emulator in use today understands.
  public static func detect(environment: [String: String], isTTY: Bool) -> ColorMode {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
    let term = environment["TERM"] ?? ""
    if !isTTY || term == "dumb" { return .monochrome }
    let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
    if colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
    if term.contains("256color") { return .ansi256 }
    return .ansi256
  }
}
