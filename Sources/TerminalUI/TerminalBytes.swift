/// Checks on what a renderer writes to a terminal (the tests and the strings fuzzer use them).
public enum TerminalBytes {
  /// Whether a terminal may take `scalar` as a command or a line break: C0, DEL, C1, and the
  /// line and paragraph separators.
  public static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
      || scalar.value == 0x2029
  }

  /// Whether every control character in `output` starts a cursor move or a style, `ESC [`
  /// digits and semicolons, then `H` or `m` — the only sequences the cell grid's diff writes.
  /// Any other escape (OSC, DCS, another CSI), C0 or C1 control means text got through as a
  /// command.
  public static func onlyCursorAndStyle(_ output: String) -> Bool {
    let scalars = Array(output.unicodeScalars)
    var index = 0
    while index < scalars.count {
      if scalars[index].value == 0x1B {
        guard index + 1 < scalars.count, scalars[index + 1] == "[" else { return false }
        index += 2
        while index < scalars.count, "0123456789;".unicodeScalars.contains(scalars[index]) {
          index += 1
        }
        guard index < scalars.count, scalars[index] == "H" || scalars[index] == "m" else {
          return false
        }
      } else if isTerminalControl(scalars[index]) {
        return false
      }
      index += 1
    }
    return true
  }
}
