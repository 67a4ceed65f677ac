import ArgumentParser
import Foundation
import RemoteCore
import TenFootCLI
import TenFootClient
import TenFootProtocol
import TenFootSecurity
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
      TypeText.self, Script.self, Focus.self, Debug.self, Pair.self,
    ],
    defaultSubcommand: Interactive.self)

  /// Blocks SIGINT and SIGTERM before any other thread exists (see `SignalWatcher`), then
  /// parses the arguments and runs.
  static func main() {
    SignalWatcher.start()
    main(nil)
  }
}

/// Options every remote subcommand takes.
struct RemoteOptions: ParsableArguments {
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var logging: LoggingOptions

  @Option(help: "Screen session to drive (default: the only one).")
  var screen: String?

  @Option(help: "Seconds to wait for the broker before giving up.")
  var timeout: Double = 3

  @Option(
    help: "Seconds to wait for a screen to register when there is none yet (default: fail at once)."
  )
  var waitForScreen: Double = 0

  func validate() throws {
    guard timeout.isFinite, timeout > 0, timeout <= 3600 else {
      throw ValidationError("--timeout must be a number of seconds between 0 and 3600")
    }
    guard waitForScreen.isFinite, waitForScreen >= 0, waitForScreen <= 3600 else {
      throw ValidationError("--wait-for-screen must be a number of seconds between 0 and 3600")
    }
  }

  func connect() throws -> RemoteClient {
    let logger = logging.bootstrap(label: "tenfoot.remote")
    let endpoints: Endpoints
    do {
      endpoints = try connection.endpoints()
    } catch {
      throw ValidationError("\(error)")
    }
    if endpoints.usesTCP && connection.insecure {
      logger.warning(
        "plain TCP without CURVE: anyone on the network can read and inject input",
        metadata: ["zmq.control": "\(endpoints.control)"])
    }
    let curve = try connection.clientCurve(endpoints, program: "remote")
    let context = try Context()
    let failure: RemoteError
    do {
      return try RemoteClient(
        context: context, endpoint: endpoints.control, screen: screen,
        timeoutMilliseconds: Int(timeout * 1000), name: "remote:\(getpid())", curve: curve,
        waitForScreenMilliseconds: Int(waitForScreen * 1000), logger: logger)
    } catch {
      failure = error
    }
    // With CURVE, "no answer" is also what a broker with a different key looks like (it
    // cannot read our handshake): ask its pairing endpoint which key it has now.
    if failure.brokerUnreachable, let curve,
      let presented = probeBrokerKey(context: context, endpoints: endpoints),
      presented != curve.brokerKey
    {
      throw TrustError.keyChanged(
        endpoint: endpoints.control, pinned: curve.brokerKey, presented: presented)
    }
    throw failure
  }

  private func probeBrokerKey(context: Context, endpoints: Endpoints) -> String? {
    guard let pairing = connection.pairingEndpoint(endpoints) else { return nil }
    do {
      let trust = try ClientTrust(directory: try connection.stateDirectory(program: "remote"))
      let client = try PairingClient(
        context: context, pairingEndpoint: pairing, trust: trust, name: "probe",
        timeoutMilliseconds: 1000)
      return try client.probeKey()
    } catch {
      return nil
    }
  }
}

extension RemoteCommand {
  /// `tenfoot-remote pair`
  struct Pair: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Pair this remote with a broker: type the PIN the screen shows.",
      discussion: """
        Connects to the broker's pairing endpoint, which makes every screen show a 4-digit PIN. \
        Type it here (or pipe it in): the remote proves it knows the PIN without sending it, \
        the broker adds this remote's key to its allow-list, and the remote pins the broker's \
        key. A wrong PIN waits 1 s, doubling to 64 s, before the next try.
        """)

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var logging: LoggingOptions

    @Option(
      help: "A name for this remote, shown on the screen and in 'tenfoot-broker remotes list'.")
    var name = "remote"

    @Flag(help: "Replace a pinned broker key that changed (after reinstalling the broker).")
    var forgetBroker = false

    @Option(help: "Seconds to wait for each broker answer.")
    var timeout: Swift.Double = 3

    func run() throws {
      _ = logging.bootstrap(label: "tenfoot.remote")
      let endpoints: Endpoints
      do {
        endpoints = try connection.endpoints()
      } catch {
        throw ValidationError("\(error)")
      }
      guard let pairingEndpoint = connection.pairingEndpoint(endpoints) else {
        throw ValidationError("cannot derive the pairing endpoint: give --pairing")
      }
      let trust: ClientTrust
      do {
        trust = try ClientTrust(directory: try connection.stateDirectory(program: "remote"))
      } catch let error as StoreError {
        throw ValidationError(error.description)
      }
      let context = try Context()
      let client = try PairingClient(
        context: context, pairingEndpoint: pairingEndpoint, trust: trust, name: name,
        timeoutMilliseconds: Int(timeout * 1000))
      let challenge = try client.begin()
      // Check the key before the PIN is typed: a changed key is refused with a clear message.
      if !forgetBroker, let pinned = try trust.pinnedKey(for: endpoints.control),
        pinned != challenge.brokerKeyText
      {
        throw TrustError.keyChanged(
          endpoint: endpoints.control, pinned: pinned, presented: challenge.brokerKeyText)
      }
      FileHandle.standardError.write(
        Data(
          "Enter the \(challenge.digits)-digit PIN shown on the screen (broker key \(AllowList.id(of: challenge.brokerKeyText))):\n"
            .utf8))
      while let line = readLine(strippingNewline: true) {
        let pin = line.trimmingCharacters(in: .whitespaces)
        guard pin.count == challenge.digits, pin.allSatisfy(\.isASCII), pin.allSatisfy(\.isNumber)
        else {
          FileHandle.standardError.write(
            Data("the PIN is \(challenge.digits) digits: try again\n".utf8))
          continue
        }
        switch try client.attempt(pin: pin, challenge: challenge) {
        case .paired(let id):
          try trust.pin(challenge.brokerKeyText, for: endpoints.control, replace: forgetBroker)
          print("paired: this remote is \(id) on the broker at \(endpoints.control)")
          return
        case .refused(let message, let wait):
          FileHandle.standardError.write(Data("\(message)\n".utf8))
          if wait > 0 { usleep(UInt32(clamping: wait * 1000)) }
          FileHandle.standardError.write(Data("Enter the PIN again:\n".utf8))
        }
      }
      throw ValidationError("not paired: no correct PIN was entered")
    }
  }

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
