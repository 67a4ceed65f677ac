import ArgumentParser
import TenFootCLI
import TenFootProtocol

/// `tenfoot-broker`: owns the focus engine and serves screens and remotes; its other
/// subcommands run the engine offline (the focus debugger).
@main
struct BrokerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tenfoot-broker",
    abstract: "Owns the focus engine: takes input from remotes, publishes each screen's state.",
    version: TenFootVersion.string,
    subcommands: [
      ServeCommand.self, SimulateCommand.self, ExplainCommand.self, KeyCommand.self, Remotes.self,
    ],
    defaultSubcommand: ServeCommand.self)

  /// Blocks SIGINT and SIGTERM before any other thread exists (see `SignalWatcher`), then
  /// parses the arguments and runs.
  static func main() {
    SignalWatcher.start()
    main(nil)
  }
}
