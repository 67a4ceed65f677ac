import Testing

@testable import FocusEngine

/// `SpatialIndex.beam(of:_:)`, the sequence the directional search loops over, against
/// `forEachInBeam(of:_:_:)`, the closure it replaced there: the same cells, in the same order,
/// with the same bands, on seeded random frames and sources (inside, across and outside the
/// indexed bounds).
struct SpatialBeamTests {
  @Test("the beam's cells are forEachInBeam's, in order", arguments: Array(UInt64(1)...60))
  func matches(seed: UInt64) {
    var rng = SplitMix64(seed: 6_500 + seed)
    let count = Int.random(in: 0...40, using: &rng)
    let frames = (0..<count).map { _ in
      Rect(
        x: Double.random(in: -200...1_800, using: &rng),
        y: Double.random(in: -200...1_000, using: &rng),
        width: Double.random(in: 1...400, using: &rng),
        height: Double.random(in: 1...300, using: &rng))
    }
    let members = (0..<count).filter { _ in Double.random(in: 0..<1, using: &rng) < 0.9 }
    let index = SpatialIndex(frames: frames, members: members)
    for _ in 0..<20 {
      let source = Rect(
        x: Double.random(in: -600...2_200, using: &rng),
        y: Double.random(in: -600...1_400, using: &rng),
        width: Double.random(in: 0...300, using: &rng),
        height: Double.random(in: 0...300, using: &rng))
      for direction in Direction.allCases {
        var expected: [(Double, [Int32])] = []
        index.forEachInBeam(of: source, direction) { band, items in
          expected.append((band, Array(items)))
          return true
        }
        let visited = index.beam(of: source, direction).map { ($0.band, Array($0.items)) }
        #expect(visited.count == expected.count, "seed \(seed), \(direction), \(source)")
        for (got, want) in zip(visited, expected) {
          #expect(got.0 == want.0 && got.1 == want.1, "seed \(seed), \(direction), \(source)")
        }
      }
    }
  }
}
