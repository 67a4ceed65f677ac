import ArgumentParser
import Foundation
import RemoteCore
import TenFootProtocol

extension RemoteCommand {
  /// `tenfoot-remote press KEY…`
  struct Press: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Press (and release) one or more keys, printing what each did.")

    @OptionGroup var options: RemoteOptions

    @Argument(help: "Keys to press in order, e.g. right right select.")
    var keys: [Tenfoot_V1_Key]

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

    func run() throws {
      if file == "-" { try stream() } else { try runFile() }
    }

    /// A file is checked whole before the first key is pressed.
    private func runFile() throws {
      let text: String
      do {
        text = try String(contentsOfFile: file, encoding: .utf8)
      } catch {
        throw ValidationError("cannot read \(file): \(error.localizedDescription)")
      }
      let actions = try RemoteScript.parse(text)
      let remote = try options.connect()
      for action in actions { try report(remote.perform(action)) }
    }

    /// Standard input is streamed: each key is pressed as its line arrives, over the one
    /// connection, so another program can drive the remote live through a pipe.
    private func stream() throws {
      let remote = try options.connect()
      var number = 0
      while let line = readLine(strippingNewline: true) {
        number += 1
        if let action = try RemoteScript.parseLine(Substring(line), number: number) {
          try report(remote.perform(action))
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
      try InteractiveRemote(remote: try options.connect()).run()
    }
  }
}
