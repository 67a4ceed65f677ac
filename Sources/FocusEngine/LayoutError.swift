/// A layout that fails validation: the JSON-style path of the offending element and why.
public struct LayoutError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Where the problem is, like `items[3].frame` or `groups[1].groups[0].items[2]`.
  public var path: String
  /// What is wrong, for people.
  public var reason: String

  /// Creates an error.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `path: reason`.
  public var description: String { "\(path): \(reason)" }
}
