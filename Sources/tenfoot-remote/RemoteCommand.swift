import ArgumentParser
import FocusEngine
import TenFootCLI
import TenFootProtocol

/// `tenfoot-remote`: a remote control for TenFoot screens.
@main
struct RemoteCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tenfoot-remote",
    abstract: "Drives a TenFoot screen: interactively, one key at a time, or from a script.",
    discussion: """
      Keys: \(RemoteButton.canonicalNames.joined(separator: ", ")).
      With no subcommand on a terminal it starts the interactive remote: arrows move, \
      Return selects, Esc/Backspace is Menu, the mouse points (m toggles it), q quits.
      The options below work before or after the subcommand: \
      'tenfoot-remote --control tcp://h:7700 press right' and \
      'tenfoot-remote press right --control tcp://h:7700' are the same.
      """,
    version: TenFootVersion.string,
    subcommands: [
      Interactive.self, Press.self, Hold.self, Double.self, Swipe.self, Drag.self, Click.self,
      Point.self,
      TypeText.self, Script.self, Device.self, Cec.self, Focus.self, Debug.self, Pair.self,
      Scan.self,
    ],
    defaultSubcommand: Interactive.self)

  /// The options every subcommand shares, parsed here wherever they stand on the command
  /// line; each subcommand's `@OptionGroup` of the same type receives this value.
  @OptionGroup var options: RemoteOptions

  /// Blocks SIGINT and SIGTERM before any other thread exists (see `SignalWatcher`), then
  /// parses the arguments (a key option's value joined to it: ``KeyArguments``) and runs.
  static func main() {
    SignalWatcher.start()
    main(KeyArguments.commandLine)
  }
}
