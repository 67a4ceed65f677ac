import ArgumentParser
import FocusEngine
import Foundation
import RemoteCore
import TenFootCLI

extension RemoteCommand {
  /// `tenfoot-remote press KEY…`
  struct Press: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Press (and release) one or more keys, printing what each did.")

    @OptionGroup var options: RemoteOptions

    @Argument(help: "Keys to press in order, e.g. right right select.")
    var keys: [RemoteButton]

    func run() throws {
      let remote = try options.connect()
      for key in keys { print(try remote.press(key).line) }
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

    @Flag(
      help: ArgumentHelp(
        "Go on after a command that failed, printing 'NAME: error: WHY' in its place.",
        discussion:
          "For load drivers and failover drills: each command's outcome is one line on standard output; the exit status is 1 if any failed."
      ))
    var keepGoing = false

    func run() throws {
      let failures = file == "-" ? try stream() : try runFile()
      if failures > 0 { throw ExitCode.failure }
    }

    /// A file is checked whole before the first key is pressed.
    /// Returns how many commands failed (with --keep-going).
    private func runFile() throws -> Int {
      let text: String
      do {
        text = try String(contentsOfFile: file, encoding: .utf8)
      } catch {
        throw CLIError("cannot read \(file)", cause: error)
      }
      let actions = try RemoteScript.parse(text)
      let remote = try options.connect()
      var failures = 0
      for action in actions where try !perform(action, on: remote) { failures += 1 }
      return failures
    }

    /// Standard input is streamed: each key is pressed as its line arrives, over the one
    /// connection, so another program can drive the remote live through a pipe.
    private func stream() throws -> Int {
      let remote = try options.connect()
      var number = 0
      var failures = 0
      while let line = readLine(strippingNewline: true) {
        number += 1
        if let action = try RemoteScript.parseLine(Substring(line), number: number),
          try !perform(action, on: remote)
        {
          failures += 1
        }
      }
      return failures
    }

    /// Performs `action` and prints its line; with --keep-going a failure is printed instead
    /// of ending the script. Returns whether it succeeded.
    private func perform(_ action: RemoteAction, on remote: RemoteClient) throws -> Bool {
      defer { fflush(nil) }
      let result: PressResult
      do {
        result = try remote.perform(action)
      } catch {
        guard keepGoing else { throw error }
        print("\(action.name): error: \(error.description)")
        return false
      }
      print(result.line)
      return true
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
      try InteractiveRemote(remote: try options.connect()).run()
    }
  }
}
