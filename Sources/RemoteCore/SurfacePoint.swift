/// A point on the touch surface: each axis in [−1, 1], the centre at (0, 0).
public struct SurfacePoint: Sendable, Equatable {
  /// Across, −1 at the left edge.
  public var x: Double
  /// Down, −1 at the top edge.
  public var y: Double

  /// A point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}
