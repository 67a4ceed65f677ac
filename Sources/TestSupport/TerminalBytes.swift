/// Checks on what a renderer writes to a terminal.
public enum TerminalBytes {
  /// Whether every control character in `output` starts a cursor move or a style, `ESC [`
  /// digits and semicolons, then `H` or `m` — the only sequences the cell grid's diff writes.
  /// Any other escape (OSC, DCS, another CSI), C0 or C1 control means text got through as a
  /// command.
  public static func onlyCursorAndStyle(_ output: String) -> Bool {
    let scalars = Array(output.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let value = scalars[index].value
      if value == 0x1B {
        guard index + 1 < scalars.count, scalars[index + 1] == "[" else { return false }
        index += 2
        while index < scalars.count, "0123456789;".unicodeScalars.contains(scalars[index]) {
          index += 1
        }
        guard index < scalars.count, scalars[index] == "H" || scalars[index] == "m" else {
          return false
        }
      } else if value < 0x20 || (value >= 0x7F && value <= 0x9F) {
        return false
      }
      index += 1
    }
    return true
  }
}
