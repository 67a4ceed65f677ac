import ArgumentParser
import Foundation
import TenFootCLI
import TenFootClient
import TerminalUI
import ZeroMQ

extension RemoteCommand {
  /// `tenfoot-remote pair`
  struct Pair: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Pair this remote with a broker: type the PIN the screen shows.",
      discussion: """
        Connects to the broker's pairing endpoint, which makes every screen (or only --screen \
        ID) show a 6-digit PIN. Type it here (or pipe it in): the remote proves it knows the \
        PIN without sending it, the broker adds this remote's key to its allow-list, and the \
        remote pins the broker's key. A wrong PIN waits 1 s, doubling to 64 s, before the next \
        try; 10 wrong PINs close pairing until the operator opens it.
        """)

    @OptionGroup var options: RemoteOptions

    @Option(
      help: "A name for this remote, shown on the screen and in 'tenfoot-broker remotes list'.")
    var name = "remote"

    @Flag(help: "Replace a pinned broker key that changed (after reinstalling the broker).")
    var forgetBroker = false

    func validate() throws {
      guard options.waitForScreen == 0 else {
        throw ValidationError("pairing drives no screen: drop --wait-for-screen")
      }
    }

    func run() throws {
      _ = options.logging.bootstrap(label: "tenfoot.remote")
      let endpoints = try options.endpoints()
      let client = try options.pairingClient(endpoints, context: try Context(), name: name)
      // --screen: only that screen shows the PIN (else every screen the broker knows by key).
      client.screen = options.screen
      guard
        let id = try client.pair(
          controlEndpoint: endpoints.control, replacingPinnedKey: forgetBroker,
          dialogue: .terminal)
      else { throw CLIError("not paired: no correct PIN was entered") }
      print("paired: this remote is \(id) on the broker at \(endpoints.control)")
    }
  }
}

extension PinDialogue {
  /// The dialogue on this process's standard input and standard error (standard output keeps
  /// only the result line).
  static var terminal: PinDialogue {
    PinDialogue(
      readLine: { Swift.readLine(strippingNewline: true) },
      // The broker's refusals are its text: shown through the terminal filter, never as control.
      say: { FileHandle.standardError.write(Data((TerminalText.printable($0) + "\n").utf8)) },
      wait: { duration in
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Swift.Double(seconds) + Swift.Double(attoseconds) / 1e18)
      })
  }
}
