import ArgumentParser
import FocusEngine
import RemoteCore

// The remote's values as command-line arguments: argument-parser checks them, lists them in
// the help, and names the valid ones in its error.

extension RemoteButton: ExpressibleByArgument {
  /// A key by its name (`right`, `select`, `play-pause`, …).
  public init?(argument: String) { self.init(name: argument) }

  /// The key names, for help and errors.
  public static var allValueStrings: [String] { canonicalNames }

  /// The name a default value shows in help.
  public var defaultValueDescription: String { name }
}

extension Direction: ExpressibleByArgument {
  /// The directions in the order a swipe's help lists them.
  public static var allValueStrings: [String] { ["left", "right", "up", "down"] }
}

extension SwipeSpeed: ExpressibleByArgument {}
