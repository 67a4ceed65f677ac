import Foundation

/// A failure the user fixes by doing something other than changing the command line (pairing,
/// fixing a file's mode): printed as `Error: <sentence>` and exit status 1, without usage text.
///
/// Made from a typed error, it keeps it as `cause` and says what the error's own description
/// says: the sentence is written once, by the error's type, not again at each call site.
public struct CLIError: Error, CustomStringConvertible {
  /// What is wrong and what to do.
  public let description: String
  /// The typed error this reports, if it came from one.
  public let cause: (any Error)?

  /// An error in the command's own words.
  public init(_ description: String) {
    self.description = description
    cause = nil
  }

  /// Reports `cause` in its own words.
  public init(_ cause: any Error) {
    description = Self.sentence(for: cause)
    self.cause = cause
  }

  /// Reports `cause` in its own words after what was being done ("cannot read script.txt:
  /// The file doesn’t exist.").
  public init(_ context: String, cause: any Error) {
    description = "\(context): \(Self.sentence(for: cause))"
    self.cause = cause
  }

  /// What an error says of itself: its description, or, for Foundation's errors (whose
  /// description is a debugging dump of domain, code and user info), their localized sentence.
  static func sentence(for error: any Error) -> String {
    error is CocoaError ? error.localizedDescription : String(describing: error)
  }
}
