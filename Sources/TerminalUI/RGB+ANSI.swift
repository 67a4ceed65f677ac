import Colour

extension RGB {
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
