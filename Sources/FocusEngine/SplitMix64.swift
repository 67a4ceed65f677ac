/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator. Randomness comes in as data
/// wherever the engine is exercised (property tests, the seeded fuzzer, the engine benchmark),
/// so a failing seed or a measured layout reproduces on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The generator's whole state: the seed, advanced once per number.
  public var state: UInt64

  /// A generator that starts from `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<limit` (0 when `limit` is at most 1), by the remainder: slightly biased
  /// for limits that do not divide 2^64, which does not matter for test data and keeps every
  /// recorded seed's sequence.
  public mutating func below(_ limit: Int) -> Int {
    limit <= 1 ? 0 : Int(next() % UInt64(limit))
  }
}
