import ArgumentParser
import FocusEngine

// The engine's named values as command-line arguments, for every executable that takes them
// (the broker's simulate and explain, the remote's debug --dry-run).

extension SearchModel: ExpressibleByArgument {}

extension Verbosity: ExpressibleByArgument {}

extension FocusInput: ExpressibleByArgument {
  /// Parses an input name (`right`, `shift-tab`, `select`, …).
  public init?(argument: String) {
    self.init(argument)
  }

  /// The input names, for help and errors.
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
