import ArgumentParser
import BrokerCore
import Foundation
import TenFootCLI
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// `tenfoot-broker`: owns the focus engine and serves screens and remotes.
@main
struct BrokerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tenfoot-broker",
    abstract: "Owns the focus engine: takes input from remotes, publishes each screen's state.",
    discussion: """
      With no flags the broker listens on ipc:// sockets in the private runtime directory \
      ($TENFOOT_RUNTIME_DIR, else $XDG_RUNTIME_DIR/tenfoot, else /tmp/tenfoot-<uid>), where \
      tenfoot-screen and tenfoot-remote find it without flags. Prints one line \
      "tenfoot-broker ready control=… state=…" on standard output once it is listening.
      tcp:// endpoints are encrypted and authenticated with CURVE (see README "Security and \
      pairing") unless --insecure is given.
      """,
    version: TenFootVersion.string,
    subcommands: [Serve.self, Key.self, Remotes.self],
    defaultSubcommand: Serve.self)
}

/// The broker's data directory flag.
struct DataOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Directory for the key pair, allow-list and state (mode 0700).",
      discussion:
        "Default: $TENFOOT_STATE_DIR/broker, else /var/lib/tenfoot/broker for root, else $XDG_STATE_HOME/tenfoot/broker.",
      valueName: "dir"), completion: .directory)
  var dataDir: String?

  func directory() throws -> String {
    do {
      return try StateDirectory.prepare(explicit: dataDir, program: "broker")
    } catch {
      throw ValidationError("\(error)")
    }
  }

  func keyPair() throws -> CurveKeyPair {
    let path = try directory() + "/broker-key.json"
    do {
      return try KeyFile.loadOrCreate(path)
    } catch {
      throw ValidationError("\(error)")
    }
  }

  func allowList() throws -> AllowListStore {
    do {
      return try AllowListStore(path: try directory() + "/allow-list.json")
    } catch {
      throw ValidationError("\(error)")
    }
  }
}

/// `tenfoot-broker key`
struct Key: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the broker's CURVE public key (created on first use).")

  @OptionGroup var data: DataOptions

  func run() throws {
    print(try data.keyPair().publicKey)
  }
}

/// `tenfoot-broker remotes list|revoke|add`
struct Remotes: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "The allow-list: paired remotes and screens allowed by key.",
    subcommands: [List.self, Revoke.self, Add.self], defaultSubcommand: List.self)

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List allowed peers.")
    @OptionGroup var data: DataOptions

    func run() throws {
      let store = try data.allowList()
      if store.list.entries.isEmpty { print("no paired remotes or screens") }
      for entry in store.list.entries {
        print("\(entry.id)  \(entry.role)  \(entry.name)  \(entry.publicKey)")
      }
    }
  }

  struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Remove a peer; a running broker refuses it at once (within 0.1 s).")
    @OptionGroup var data: DataOptions
    @Argument(help: "The id from 'remotes list' (or the public key).") var id: String

    func run() throws {
      let store = try data.allowList()
      let removed = try store.modify { $0.revoke(id) }
      guard let removed else { throw ValidationError("no allowed peer has id \(id)") }
      print("revoked \(removed.id) (\(removed.name))")
    }
  }

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Allow a key copied from a screen ('tenfoot-screen --print-key') or remote.")
    @OptionGroup var data: DataOptions
    @Option(help: "A name for people.") var name: String
    @Option(help: "screen or remote.") var role = "screen"
    @Argument(help: "The peer's CURVE public key (Z85, 40 characters).") var publicKey: String

    func run() throws {
      guard Z85.decode(publicKey)?.count == 32 else {
        throw ValidationError("not a 40-character Z85 CURVE public key: \(publicKey)")
      }
      guard role == "screen" || role == "remote" else {
        throw ValidationError("--role is screen or remote")
      }
      let entry = AllowList.Entry(
        publicKey: publicKey, name: name, role: role, added: Date().timeIntervalSince1970)
      try data.allowList().modify { $0.allow(entry) }
      print("allowed \(entry.id) (\(name), \(role))")
    }
  }
}

/// `tenfoot-broker [serve]`
struct Serve: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Run the broker (the default).")

  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var logging: LoggingOptions
  @OptionGroup var data: DataOptions

  @Option(help: "Messages queued per screen before the state socket drops (screens resync).")
  var stateHighWaterMark: Int32 = 10_000

  @Option(help: "Control messages per second each peer may send; more get rate_limited.")
  var peerRate: Double = 2000

  func validate() throws {
    guard peerRate.isFinite, peerRate >= 1 else {
      throw ValidationError("--peer-rate must be at least 1 message per second")
    }
  }

  func run() throws {
    let logger = logging.bootstrap(label: "tenfoot.broker")
    let endpoints: Endpoints
    do {
      endpoints = try connection.endpoints()
    } catch {
      throw ValidationError("\(error)")
    }
    var configuration = BrokerConfiguration(
      controlEndpoints: [endpoints.control], stateEndpoints: [endpoints.state])
    configuration.stateHighWaterMark = stateHighWaterMark
    configuration.peerRate = peerRate
    configuration.peerBurst = max(10, peerRate / 10)
    // Durable sessions need a data directory: given explicitly (--data-dir or
    // $TENFOOT_STATE_DIR), or the one CURVE uses anyway. The default local demo keeps its
    // sessions in memory and touches no data directory.
    if data.dataDir != nil || ProcessInfo.processInfo.environment["TENFOOT_STATE_DIR"] != nil
      || connection.usesCurve(endpoints)
    {
      configuration.sessionRecordsPath = try data.directory() + "/sessions.json"
    }
    if connection.usesCurve(endpoints) {
      guard let pairing = connection.pairingEndpoint(endpoints) else {
        throw ValidationError("cannot derive the pairing endpoint: give --pairing")
      }
      let directory = try data.directory()
      configuration.security = BrokerSecurity(
        keyPair: try data.keyPair(), allowListPath: directory + "/allow-list.json",
        pairingEndpoints: [pairing])
    } else if endpoints.usesTCP {
      logger.warning(
        "plain TCP without CURVE (--insecure): anyone who can reach these ports can read and inject input",
        metadata: [
          "zmq.control": "\(endpoints.control)",
          "network.loopback":
            "\(Endpoints.isLoopback(endpoints.control) && Endpoints.isLoopback(endpoints.state))",
        ])
    }
    for endpoint in [endpoints.control, endpoints.state] where endpoint.hasPrefix("ipc://") {
      // A broker that died leaves its socket file behind; binding over it is safe only because
      // the runtime directory is private, and it is what lets a restarted broker come back.
      unlink(String(endpoint.dropFirst("ipc://".count)))
    }
    let context = try Context()
    let broker = try BrokerThread(configuration: configuration, context: context, logger: logger)
    SignalWatcher.onTerminate { broker.stopper.stop() }
    let pairing =
      broker.pairingEndpoints.isEmpty
      ? "" : " pairing=\(broker.pairingEndpoints.joined(separator: ","))"
    print(
      "tenfoot-broker ready control=\(broker.controlEndpoints.joined(separator: ",")) state=\(broker.stateEndpoints.joined(separator: ",")) epoch=\(broker.epoch)\(pairing)"
    )
    fflush(nil)
    broker.wait()
  }
}
