import ArgumentParser
import Foundation
import RemoteCore
import TenFootCLI
import TenFootProtocol
import ZeroMQ

/// `tenfoot-remote`: a remote control for TenFoot screens.
@main
struct RemoteCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tenfoot-remote",
    abstract: "Drives a TenFoot screen: interactively, one key at a time, or from a script.",
    discussion: """
      Keys: \(Tenfoot_V1_Key.canonicalNames.joined(separator: ", ")).
      With no subcommand on a terminal it starts the interactive remote: arrows move, \
      Return selects, Esc/Backspace is Menu, q quits.
      """,
    version: TenFootVersion.string,
    subcommands: [
      Interactive.self, Press.self, Hold.self, Double.self, Swipe.self, Drag.self, Click.self,
      TypeText.self, Script.self, Focus.self, Debug.self,
    ],
    defaultSubcommand: Interactive.self)
}

/// Options every remote subcommand takes.
struct RemoteOptions: ParsableArguments {
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var logging: LoggingOptions

  @Option(help: "Screen session to drive (default: the only one).")
  var screen: String?

  @Option(help: "Seconds to wait for the broker before giving up.")
  var timeout: Double = 3

  func validate() throws {
    guard timeout.isFinite, timeout > 0, timeout <= 3600 else {
      throw ValidationError("--timeout must be a number of seconds between 0 and 3600")
    }
  }

  func connect() throws -> RemoteClient {
    _ = logging.bootstrap(label: "tenfoot.remote")
    let endpoints: Endpoints
    do {
      endpoints = try connection.endpoints()
    } catch {
      throw ValidationError("\(error)")
    }
    let context = try Context()
    return try RemoteClient(
      context: context, endpoint: endpoints.control, screen: screen,
      timeoutMilliseconds: Int(timeout * 1000), name: "remote:\(getpid())")
  }
}

extension RemoteCommand {
  /// `tenfoot-remote press KEY…`
  struct Press: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Press (and release) one or more keys, printing what each did.")

    @OptionGroup var options: RemoteOptions

    @Argument(help: "Keys to press in order, e.g. right right select.")
    var keys: [String]

    func run() throws {
      let parsed = try keys.map { name in
        guard let key = Tenfoot_V1_Key(name: name) else {
          throw ValidationError(
            "unknown key \"\(name)\" (keys: \(Tenfoot_V1_Key.canonicalNames.joined(separator: ", ")))"
          )
        }
        return key
      }
      let remote = try options.connect()
      for key in parsed {
        print(try remote.press(key).line)
      }
    }
  }

  /// `tenfoot-remote script [FILE|-]`
  struct Script: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Press the keys of a script: one key per line, # comments, blank lines ignored.",
      discussion:
        "A file is checked whole first; standard input (-) is pressed line by line as it arrives.")

    @OptionGroup var options: RemoteOptions

    @Argument(help: "Script file, or - for standard input.", completion: .file())
    var file = "-"

    func run() throws {
      guard file == "-" else {
        // A file is checked whole before the first key is pressed.
        let text: String
        do {
          text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
          throw ValidationError("cannot read \(file): \(error.localizedDescription)")
        }
        let keys = try RemoteScript.parse(text)
        let remote = try options.connect()
        for action in keys { try report(remote.perform(action)) }
        return
      }
      // Standard input is streamed: each key is pressed as its line arrives, over the one
      // connection, so another program can drive the remote live through a pipe.
      let remote = try options.connect()
      var number = 0
      while let line = readLine(strippingNewline: true) {
        number += 1
        if let key = try RemoteScript.parseLine(Substring(line), number: number) {
          try report(remote.perform(key))
        }
      }
    }

    private func report(_ result: PressResult) {
      print(result.line)
      fflush(nil)
    }
  }

  /// `tenfoot-remote [interactive]`
  struct Interactive: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Interactive remote on this terminal (the default).")

    @OptionGroup var options: RemoteOptions

    func run() throws {
      guard isatty(STDIN_FILENO) == 1 else {
        throw ValidationError(
          "standard input is not a terminal: use 'tenfoot-remote press KEY' or 'tenfoot-remote script FILE'"
        )
      }
      let remote = try options.connect()
      try InteractiveRemote(remote: remote).run()
    }
  }
}
