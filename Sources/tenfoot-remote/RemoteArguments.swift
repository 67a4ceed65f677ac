import ArgumentParser
import RemoteCore
import TenFootProtocol

// The remote's values as command-line arguments: argument-parser checks them, lists them in
// the help, and names the valid ones in its error.

extension Tenfoot_V1_Key: ExpressibleByArgument {
  /// A key by its name (`right`, `select`, `play-pause`, …).
  public init?(argument: String) { self.init(name: argument) }

  /// The key names, for help and errors.
  public static var allValueStrings: [String] { canonicalNames }

  /// The name a default value shows in help.
  public var defaultValueDescription: String { name }
}

extension SwipeDirection: ExpressibleByArgument {}

extension SwipeSpeed: ExpressibleByArgument {}
