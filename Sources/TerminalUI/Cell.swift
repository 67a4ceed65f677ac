/// One character cell of a terminal: what is shown and how.
public struct Cell: Sendable, Hashable {
  /// The character; it must be one column wide (see ``CellGrid``).
  public var character: Character
  /// How it is drawn.
  public var style: Style

  /// Creates a cell.
  public init(_ character: Character = " ", style: Style = .plain) {
    self.character = character
    self.style = style
  }

  /// A plain space.
  public static let blank = Cell()
}
