/// A QR code (ISO/IEC 18004) for a short text: byte mode, error correction level M, the
/// smallest version (1–40) that holds it, the best of the eight masks by the standard's
/// penalty rules. Used for the phone remote's link (`tenfoot-screen --phone-remote`).
///
/// Written by hand: the Swift package mirror has no QR library and Debian's libqrencode has no
/// Swift binding; the encoder is small, pure, and its codes are checked against Debian's
/// `zbarimg` in the tests. The structure follows the standard's sections (and Project Nayuki's
/// reference implementation of them): data codewords, Reed–Solomon blocks over GF(256),
/// interleaving, function patterns, zig-zag placement, masking, format and version
/// information.
public struct QRCode: Sendable, Equatable {
  /// The version (1–40): the symbol is `4 × version + 17` modules wide.
  public let version: Int
  /// Modules per side.
  public let size: Int
  /// The mask pattern chosen (0–7).
  public let mask: Int
  /// Row-major modules, true for dark.
  public private(set) var modules: [Bool]

  /// Why a text cannot be encoded.
  public enum EncodingError: Error, Equatable, CustomStringConvertible {
    /// More bytes than a version 40 symbol at level M holds.
    case tooLong(bytes: Int, maximum: Int)

    /// What is wrong.
    public var description: String {
      switch self {
      case .tooLong(let bytes, let maximum):
        "\(bytes) bytes do not fit a QR code (at most \(maximum) at error correction M)"
      }
    }
  }

  /// Whether the module at column `x`, row `y` is dark.
  public subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

  /// The code for `text`'s UTF-8 bytes.
  public init(_ text: String) throws(EncodingError) {
    try self.init(bytes: Array(text.utf8))
  }

  /// The code for `bytes` (byte mode, level M).
  public init(bytes: [UInt8]) throws(EncodingError) {
    guard let version = (1...40).first(where: { Self.fits(bytes.count, version: $0) }) else {
      throw .tooLong(bytes: bytes.count, maximum: Self.capacity(version: 40))
    }
    self.version = version
    size = version * 4 + 17
    var symbol = Symbol(size: size)
    symbol.drawFunctionPatterns(version: version)
    let codewords = Self.interleaved(Self.dataCodewords(bytes, version: version), version: version)
    symbol.place(codewords)
    var best = (mask: 0, penalty: Int.max, modules: [Bool]())
    for mask in 0..<8 {
      var candidate = symbol
      candidate.apply(mask: mask)
      candidate.drawFormat(mask: mask)
      let penalty = candidate.penalty()
      if penalty < best.penalty { best = (mask, penalty, candidate.dark) }
    }
    mask = best.mask
    modules = best.modules
  }

  /// The most bytes a symbol of `version` holds at level M.
  public static func capacity(version: Int) -> Int {
    let bits = dataCodewordCount(version: version) * 8 - 4 - countBits(version: version)
    return bits / 8
  }

  private static func fits(_ count: Int, version: Int) -> Bool {
    count <= capacity(version: version)
  }

  /// Bits of the byte-mode character count.
  private static func countBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

  // Level M's error correction per version (ISO/IEC 18004 table 9): codewords per block and
  // blocks.
  private static let eccPerBlock = [
    10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
    26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  ]
  private static let blockCount = [
    1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
    17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
  ]

  /// Modules left for data and error correction once the function patterns are drawn.
  static func rawModuleCount(version: Int) -> Int {
    var result = (16 * version + 128) * version + 64
    if version >= 2 {
      let alignments = version / 7 + 2
      result -= (25 * alignments - 10) * alignments - 55
      if version >= 7 { result -= 36 }
    }
    return result
  }

  static func dataCodewordCount(version: Int) -> Int {
    rawModuleCount(version: version) / 8 - eccPerBlock[version - 1] * blockCount[version - 1]
  }

  /// Mode, count, bytes, terminator and padding, as codewords.
  static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
    var bits: [Bool] = []
    func append(_ value: Int, _ count: Int) {
      for shift in stride(from: count - 1, through: 0, by: -1) {
        bits.append((value >> shift) & 1 == 1)
      }
    }
    append(0b0100, 4)
    append(bytes.count, countBits(version: version))
    for byte in bytes { append(Int(byte), 8) }
    let capacity = dataCodewordCount(version: version) * 8
    append(0, min(4, capacity - bits.count))
    append(0, (8 - bits.count % 8) % 8)
    var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
      bits[start..<start + 8].reduce(UInt8(0)) { byte, bit in byte << 1 | (bit ? 1 : 0) }
    }
    var pad: UInt8 = 0xEC
    while codewords.count * 8 < capacity {
      codewords.append(pad)
      pad ^= 0xEC ^ 0x11
    }
    return codewords
  }

  /// The data split into blocks, each followed by its Reed–Solomon codewords, interleaved.
  static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
    let blocks = blockCount[version - 1]
    let ecc = eccPerBlock[version - 1]
    let raw = rawModuleCount(version: version) / 8
    let shortBlocks = blocks - raw % blocks
    let shortLength = raw / blocks
    let divisor = ReedSolomon.divisor(degree: ecc)
    var split: [[UInt8]] = []
    var offset = 0
    for index in 0..<blocks {
      let length = shortLength - ecc + (index < shortBlocks ? 0 : 1)
      var block = Array(data[offset..<offset + length])
      offset += length
      let remainder = ReedSolomon.remainder(block, divisor: divisor)
      if index < shortBlocks { block.append(0) }  // A gap, skipped when interleaving.
      split.append(block + remainder)
    }
    var result: [UInt8] = []
    for column in 0..<split[0].count {
      for (index, block) in split.enumerated()
      where column != shortLength - ecc || index >= shortBlocks {
        result.append(block[column])
      }
    }
    return result
  }

  /// The Reed–Solomon codewords for one block of `data` at `version`'s level M block size.
  static func errorCorrection(_ data: [UInt8], version: Int) -> [UInt8] {
    ReedSolomon.remainder(data, divisor: ReedSolomon.divisor(degree: eccPerBlock[version - 1]))
  }

  /// The alignment patterns' centre coordinates for `version`.
  static func alignmentPositions(version: Int) -> [Int] {
    guard version > 1 else { return [] }
    let count = version / 7 + 2
    let size = version * 4 + 17
    let step =
      version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
    var result = [6]
    var position = size - 7
    for _ in 0..<(count - 1) {
      result.insert(position, at: 1)
      position -= step
    }
    return result
  }
}

extension QRCode {
  /// The symbol being built: modules and which of them belong to function patterns.
  struct Symbol {
    let size: Int
    var dark: [Bool]
    var function: [Bool]

    init(size: Int) {
      self.size = size
      dark = Array(repeating: false, count: size * size)
      function = Array(repeating: false, count: size * size)
    }

    mutating func set(_ x: Int, _ y: Int, _ isDark: Bool) {
      dark[y * size + x] = isDark
      function[y * size + x] = true
    }

    mutating func drawFunctionPatterns(version: Int) {
      for i in 0..<size {
        set(6, i, i % 2 == 0)
        set(i, 6, i % 2 == 0)
      }
      for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
        for dy in -4...4 {
          for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
            let distance = max(abs(dx), abs(dy))
            set(x + dx, y + dy, distance != 2 && distance != 4)
          }
        }
      }
      let positions = QRCode.alignmentPositions(version: version)
      let last = positions.count - 1
      for (i, x) in positions.enumerated() {
        for (j, y) in positions.enumerated()
        where !(i == 0 && j == 0) && !(i == 0 && j == last) && !(i == last && j == 0) {
          for dy in -2...2 {
            for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
          }
        }
      }
      drawFormat(mask: 0)  // Reserves the format areas; redrawn with the chosen mask.
      if version >= 7 {
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for i in 0..<18 {
          let bit = (bits >> i) & 1 == 1
          let a = size - 11 + i % 3
          let b = i / 3
          set(a, b, bit)
          set(b, a, bit)
        }
      }
    }

    /// The format information (level M, `mask`) in both copies, and the dark module.
    mutating func drawFormat(mask: Int) {
      let data = 0b00 << 3 | mask  // Level M's format bits are 00.
      var remainder = data
      for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
      let bits = (data << 10 | remainder) ^ 0x5412
      func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
      for i in 0...5 { set(8, i, bit(i)) }
      set(8, 7, bit(6))
      set(8, 8, bit(7))
      set(7, 8, bit(8))
      for i in 9..<15 { set(14 - i, 8, bit(i)) }
      for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
      for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
      set(8, size - 8, true)
    }

    /// The codewords' bits in the zig-zag order, in column pairs from the right.
    mutating func place(_ codewords: [UInt8]) {
      var index = 0
      var right = size - 1
      while right >= 1 {
        if right == 6 { right = 5 }  // Skips the vertical timing pattern.
        for vertical in 0..<size {
          for offset in 0..<2 {
            let x = right - offset
            let upward = (right + 1) & 2 == 0
            let y = upward ? size - 1 - vertical : vertical
            guard !function[y * size + x], index < codewords.count * 8 else { continue }
            dark[y * size + x] = (codewords[index >> 3] >> (7 - UInt8(index & 7))) & 1 == 1
            index += 1
          }
        }
        right -= 2
      }
    }

    mutating func apply(mask: Int) {
      for y in 0..<size {
        for x in 0..<size where !function[y * size + x] {
          let invert: Bool
          switch mask {
          case 0: invert = (x + y) % 2 == 0
          case 1: invert = y % 2 == 0
          case 2: invert = x % 3 == 0
          case 3: invert = (x + y) % 3 == 0
          case 4: invert = (x / 3 + y / 2) % 2 == 0
          case 5: invert = x * y % 2 + x * y % 3 == 0
          case 6: invert = (x * y % 2 + x * y % 3) % 2 == 0
          default: invert = ((x + y) % 2 + x * y % 3) % 2 == 0
          }
          if invert { dark[y * size + x].toggle() }
        }
      }
    }

    /// The standard's penalty score (rules N1–N4); lower reads better.
    func penalty() -> Int {
      var score = 0
      func at(_ x: Int, _ y: Int) -> Bool { dark[y * size + x] }
      // N1 (runs of five or more) and N3 (finder-like 1:1:3:1:1 with four light modules on
      // one side, the outside counting as light) along rows and columns.
      let finder: [Bool] = [true, false, true, true, true, false, true]
      for horizontal in [true, false] {
        for line in 0..<size {
          let cells = (0..<size).map { horizontal ? at($0, line) : at(line, $0) }
          var run = 1
          for i in 1...size {
            if i < size && cells[i] == cells[i - 1] {
              run += 1
            } else {
              if run >= 5 { score += 3 + run - 5 }
              run = 1
            }
          }
          func light(_ range: Range<Int>) -> Bool {
            range.allSatisfy { $0 < 0 || $0 >= size || !cells[$0] }
          }
          for start in 0...(size - 7)
          where (0..<7).allSatisfy({ cells[start + $0] == finder[$0] }) {
            if light((start - 4)..<start) { score += 40 }
            if light((start + 7)..<(start + 11)) { score += 40 }
          }
        }
      }
      // N2: 2×2 blocks of one colour.
      for y in 0..<(size - 1) {
        for x in 0..<(size - 1) {
          let colour = at(x, y)
          if at(x + 1, y) == colour && at(x, y + 1) == colour && at(x + 1, y + 1) == colour {
            score += 3
          }
        }
      }
      // N4: 10 points per 5 % the dark share strays from 50 %.
      let darkCount = dark.count(where: { $0 })
      let total = size * size
      score += abs(darkCount * 100 / total - 50) / 5 * 10
      return score
    }
  }

  /// Reed–Solomon error correction over GF(256) with the polynomial x⁸+x⁴+x³+x²+1 (0x11D).
  enum ReedSolomon {
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
      var result = 0
      for shift in stride(from: 7, through: 0, by: -1) {
        result = (result << 1) ^ ((result >> 7) * 0x11D)
        if (b >> UInt8(shift)) & 1 == 1 { result ^= Int(a) }
      }
      return UInt8(result)
    }

    /// The generator polynomial (x − α⁰)…(x − α^(degree−1)), highest term implicit.
    static func divisor(degree: Int) -> [UInt8] {
      var result = Array(repeating: UInt8(0), count: degree)
      result[degree - 1] = 1
      var root: UInt8 = 1
      for _ in 0..<degree {
        for j in 0..<degree {
          result[j] = multiply(result[j], root)
          if j + 1 < degree { result[j] ^= result[j + 1] }
        }
        root = multiply(root, 0x02)
      }
      return result
    }

    /// The remainder of `data` × x^degree divided by `divisor`: the error correction codewords.
    static func remainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
      var result = Array(repeating: UInt8(0), count: divisor.count)
      for byte in data {
        let factor = byte ^ result.removeFirst()
        result.append(0)
        for i in result.indices { result[i] ^= multiply(divisor[i], factor) }
      }
      return result
    }
  }
}

extension QRCode {
  /// The standard's quiet zone: four light modules on every side.
  public static let quietZone = 4

  /// Whether the module at (`x`, `y`) is dark, counting the quiet zone of `border` modules
  /// (light) around the symbol.
  public func isDark(x: Int, y: Int, border: Int) -> Bool {
    let column = x - border
    let row = y - border
    guard (0..<size).contains(column), (0..<size).contains(row) else { return false }
    return self[column, row]
  }

  /// The code as text rows of half-block characters, two module rows per text row: `█` both
  /// dark, `▀` top dark, `▄` bottom dark, space both light; quiet zone included. Draw it dark on
  /// light (the renderer sets the colours), so a terminal's own theme cannot invert it.
  public func halfBlockLines(border: Int = QRCode.quietZone) -> [String] {
    let width = size + 2 * border
    return stride(from: 0, to: width, by: 2).map { y in
      String(
        (0..<width).map { x -> Character in
          switch (isDark(x: x, y: y, border: border), isDark(x: x, y: y + 1, border: border)) {
          case (true, true): "█"
          case (true, false): "▀"
          case (false, true): "▄"
          case (false, false): " "
          }
        })
    }
  }

  /// The code as an SVG image, one unit per module, dark on a white square with the quiet
  /// zone; scale it with CSS or the `width`/`height` it is given.
  public func svg(border: Int = QRCode.quietZone, pixels: Int? = nil) -> String {
    let width = size + 2 * border
    var path = ""
    for y in 0..<size {
      var x = 0
      while x < size {
        guard self[x, y] else {
          x += 1
          continue
        }
        let start = x
        while x < size && self[x, y] { x += 1 }
        path += "M\(start + border) \(y + border)h\(x - start)v1h-\(x - start)z"
      }
    }
    let dimension = pixels.map { " width=\"\($0)\" height=\"\($0)\"" } ?? ""
    return
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(width)\"\(dimension) "
      + "shape-rendering=\"crispEdges\"><rect width=\"\(width)\" height=\"\(width)\" "
      + "fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
  }

  /// The code as a plain PBM image (P1), `scale` pixels per module, quiet zone included: the
  /// simplest format `zbarimg` reads.
  public func pbm(border: Int = QRCode.quietZone, scale: Int = 4) -> String {
    let width = (size + 2 * border) * scale
    var out = "P1\n\(width) \(width)\n"
    for y in 0..<width {
      var row = ""
      row.reserveCapacity(width * 2)
      for x in 0..<width {
        row += isDark(x: x / scale, y: y / scale, border: border) ? "1 " : "0 "
      }
      out += row + "\n"
    }
    return out
  }
}
