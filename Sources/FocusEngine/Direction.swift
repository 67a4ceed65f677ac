/// A direction of travel for directional focus.
public enum Direction: String, Sendable, Hashable, CaseIterable {
  case up, down, left, right
}
