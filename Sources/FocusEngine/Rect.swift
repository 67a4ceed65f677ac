/// An axis-aligned rectangle in points, origin top-left, y growing downwards.
public struct Rect: Sendable, Hashable {
  /// Leading edge.
  public var x: Double
  /// Top edge.
  public var y: Double
  /// Width, never negative in a validated layout.
  public var width: Double
  /// Height, never negative in a validated layout.
  public var height: Double

  /// Creates a rectangle from its origin and size.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The leading edge.
  public var minX: Double { x }
  /// The trailing edge.
  public var maxX: Double { x + width }
  /// The top edge.
  public var minY: Double { y }
  /// The bottom edge.
  public var maxY: Double { y + height }
  /// The horizontal centre.
  public var midX: Double { x + width / 2 }
  /// The vertical centre.
  public var midY: Double { y + height / 2 }

  /// The part of this rectangle inside `other` (zero width or height when they do not meet).
  public func intersection(_ other: Rect) -> Rect {
    let left = max(x, other.x)
    let top = max(y, other.y)
    let right = min(x + width, other.x + other.width)
    let bottom = min(y + height, other.y + other.height)
    return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
  }
}

/// A size in points.
public struct Size: Sendable, Hashable {
  /// Width in points.
  public var width: Double
  /// Height in points.
  public var height: Double

  /// Creates a size.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The default tvOS canvas, 1920×1080 points.
  public static let tv = Size(width: 1920, height: 1080)
}

/// A point or an offset in points.
public struct Point: Sendable, Hashable {
  /// Horizontal coordinate.
  public var x: Double
  /// Vertical coordinate.
  public var y: Double

  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The origin, (0, 0).
  public static let zero = Point(x: 0, y: 0)
}
