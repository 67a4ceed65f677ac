/// A rectangle of cells: column `x`, row `y`, both from 0 at the top left.
public struct CellRect: Sendable, Hashable {
  /// Leftmost column.
  public var x: Int
  /// Top row.
  public var y: Int
  /// Width in columns.
  public var width: Int
  /// Height in rows.
  public var height: Int

  /// Creates a rectangle.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// One past the rightmost column.
  public var maxX: Int { x + width }
  /// One past the bottom row.
  public var maxY: Int { y + height }
  /// Whether it covers no cell.
  public var isEmpty: Bool { width <= 0 || height <= 0 }

  /// The part of this rectangle inside `other` (empty if they do not overlap).
  public func intersection(_ other: CellRect) -> CellRect {
    let left = max(x, other.x)
    let top = max(y, other.y)
    let right = min(maxX, other.maxX)
    let bottom = min(maxY, other.maxY)
    return CellRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
  }

  /// This rectangle moved in by `amount` cells on every side (grown for a negative amount).
  public func inset(by amount: Int) -> CellRect {
    CellRect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
  }

  /// Whether the cell at column `x`, row `y` lies inside.
  public func contains(x column: Int, y row: Int) -> Bool {
    column >= x && column < maxX && row >= y && row < maxY
  }
}
