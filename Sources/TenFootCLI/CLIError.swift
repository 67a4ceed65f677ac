/// A failure the user fixes by doing something other than changing the command line (pairing,
/// fixing a file's mode): printed as `Error: <sentence>` and exit status 1, without usage text.
public struct CLIError: Error, CustomStringConvertible {
  /// What is wrong and what to do.
  public let description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}
