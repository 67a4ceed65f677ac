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
    discussion: """
      --data-dir works before or after the subcommand: \
      'tenfoot-broker --data-dir DIR remotes list' and \
      'tenfoot-broker remotes list --data-dir DIR' are the same.
      """,
    version: TenFootVersion.string,
    subcommands: [
      ServeCommand.self, SimulateCommand.self, ExplainCommand.self, KeyCommand.self, Remotes.self,
      StatusCommand.self, StoreCommand.self, Pairing.self, InviteCommand.self,
    ],
    defaultSubcommand: ServeCommand.self)

  /// The option the serving and allow-list subcommands share, parsed here wherever it stands
  /// on the command line; each subcommand's `@OptionGroup` of the same type receives it.
  @OptionGroup var data: DataOptions

  /// Blocks SIGINT and SIGTERM before any other thread exists (see `SignalWatcher`), then
  /// parses the arguments (a key option's value joined to it: ``KeyArguments``) and runs.
  static func main() {
    SignalWatcher.start()
    main(KeyArguments.commandLine)
  }
}
