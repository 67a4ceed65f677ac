import ArgumentParser
import TenFootCLI
import TenFootClient
import TenFootProtocol
import ZeroMQ

/// `tenfoot-screen pairing open`: someone at the screen opens pairing again after too many
/// wrong PINs closed it, with the screen's own key, for a broker on another host.
struct PairingCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pairing",
    abstract: "Open pairing again at this screen after too many wrong PINs closed it.",
    subcommands: [Open.self])

  /// `tenfoot-screen pairing open`
  struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Open pairing again, as someone at this screen (with its own key).",
      discussion: """
        After 10 wrong PINs in all the broker closes pairing, and the screens say so. Run this \
        on the screen's host with the screen's own --id and connection options (its \
        --state-dir holds its key): the broker opens pairing again if that key owns the \
        screen and the screen is running. A remote's or an app's key is refused (FORBIDDEN). \
        Each address keeps its wrong-PIN count, so a guesser's address stays refused until \
        its failures decay; the operator's 'tenfoot-broker pairing open' clears every count.
        """)

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "The screen's session id, as given to the screen (1–64 of A-Z a-z 0-9 . _ : -).")
    var id = "main"

    @Option(help: "Seconds to wait for the broker's answer.")
    var timeout = 5.0

    func validate() throws {
      if let problem = ScreenID.problem(with: id) { throw ValidationError(problem) }
      guard timeout > 0 && timeout <= 600 else {
        throw ValidationError("--timeout wants seconds in (0, 600]")
      }
    }

    func run() throws {
      let endpoints = try connection.usageEndpoints(program: "screen")
      let curve = try connection.clientCurve(endpoints, program: "screen")
      let context = try Context()
      defer { context.shutdown() }
      let reply: Tenfoot_V1_Envelope.OneOf_Body
      do {
        let control = try ControlConnection(
          context: context, endpoint: endpoints.control, sender: "screen:\(id)", curve: curve)
        reply = try control.request(
          .openPairing(.with { $0.screenID = id }),
          timeout: .milliseconds(Int64(timeout * 1000)))
      } catch {
        throw CLIError(error)
      }
      switch reply {
      case .ack: print("pairing: open (at screen \(id))")
      case .error(let error): throw CLIError(error.message)
      default: throw CLIError("the broker answered open_pairing with \(reply)")
      }
    }
  }
}
