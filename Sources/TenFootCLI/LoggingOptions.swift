import ArgumentParser
import Foundation
import Logging

/// The logging flags every TenFoot program takes; only executables bootstrap logging.
public struct LoggingOptions: ParsableArguments {
  /// The lowest level logged.
  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
  public var logLevel: Logger.Level = .info

  /// Where logs go.
  @Option(help: "Append logs to this file instead of standard error.", completion: .file())
  public var logFile: String?

  /// Creates default options.
  public init() {}

  /// Bootstraps swift-log once for the process and returns a logger labelled `label`; every
  /// line goes through ``EscapingLogHandler``.
  /// With a log file (`--log-file`, else `defaultFile`), standard error is redirected to it,
  /// which keeps a full-screen terminal renderer clean.
  public func bootstrap(label: String, defaultFile: String? = nil) -> Logger {
    let level = logLevel
    if let path = logFile ?? defaultFile {
      let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
      if fd >= 0 {
        dup2(fd, STDERR_FILENO)
        close(fd)
      }
    }
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      // One event, one line: peers' strings in messages and metadata are escaped.
      return EscapingLogHandler(handler)
    }
    return Logger(label: label)
  }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
