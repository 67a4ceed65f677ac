import ArgumentParser
import Foundation
import TenFootClient
import TenFootDiscovery
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// The endpoint flags every TenFoot program takes.
public struct ConnectionOptions: ParsableArguments {
  /// Control endpoint.
  @Option(
    help: ArgumentHelp(
      "Control endpoint (broker ROUTER), e.g. tcp://127.0.0.1:7700.",
      discussion: "Default: ipc://<runtime dir>/control.", valueName: "endpoint"))
  public var control: String?

  /// State endpoint.
  @Option(
    help: ArgumentHelp(
      "State endpoint (broker PUB), e.g. tcp://127.0.0.1:7701.",
      discussion: "Default: ipc://<runtime dir>/state.", valueName: "endpoint"))
  public var state: String?

  /// Pairing endpoint.
  @Option(
    help: ArgumentHelp(
      "Pairing endpoint (broker, plain ZeroMQ, pairing messages only).",
      discussion: "Default: the control endpoint's port + 2 (tcp), or <runtime dir>/pairing (ipc).",
      valueName: "endpoint"))
  public var pairing: String?

  /// Allow plain TCP.
  @Flag(help: "Use plain tcp:// without CURVE encryption (trusted networks only; logs a warning).")
  public var insecure = false

  /// State directory.
  @Option(
    help: ArgumentHelp(
      "Directory for keys and state (mode 0700).",
      discussion:
        "Default: $TENFOOT_STATE_DIR/<program>, else /var/lib/tenfoot/<program> for root, else $XDG_STATE_HOME/tenfoot/<program>.",
      valueName: "dir"), completion: .directory)
  public var stateDir: String?

  /// The broker's public key. Parsed unconditionally: Z85 keys may start with `-`.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The broker's CURVE public key (tenfoot-broker key prints it, --base64url in a form no shell needs quoted); pinned on first use.",
      valueName: "key"))
  public var brokerKey: String?

  /// A broker's connection string, or its name on the local network.
  @Option(
    help: ArgumentHelp(
      "The broker: its connection string (tenfoot://…, from 'tenfoot-broker invite'), or the name it announces on the local network.",
      discussion:
        "A connection string carries the endpoints and the broker's key in characters no shell needs quoted; $TENFOOT_BROKER gives one too. A name is found by DNS-SD over mDNS through avahi-daemon ('tenfoot-remote scan' lists them), waiting up to 3 s.",
      valueName: "url|name"))
  public var broker: String?

  /// How long `--broker` waits for the network's answers.
  public static let discoveryWait: Duration = .seconds(3)

  /// Creates default options.
  public init() {}

  /// ``endpoints(program:)`` as a command's `run()` wants them: a bad endpoint is a usage
  /// error (`ValidationError`, status 64), a broker not found (`CLIError`) is not.
  public func usageEndpoints(program: String) throws -> Endpoints {
    do {
      return try endpoints(program: program)
    } catch let error as CLIError {
      throw error
    } catch let error as ValidationError {
      throw error
    } catch {
      throw ValidationError("\(error)")
    }
  }

  /// The endpoints to use: the broker `--broker` names (found for `program`, whose pinned
  /// keys decide between answers), else the flags, else the local ipc defaults.
  public func endpoints(program: String? = nil) throws -> Endpoints {
    // $TENFOOT_BROKER is for clients (a program given): a broker binds what its flags say.
    let environment = program == nil ? [:] : ProcessInfo.processInfo.environment
    if let connection = try connectionString(environment: environment) {
      guard control == nil, state == nil else {
        throw ValidationError(
          "give the connection string or the endpoints (--control, --state), not both")
      }
      var endpoints = connection.endpoints
      if let pairing { endpoints.pairing = pairing }
      return endpoints
    }
    if let broker {
      guard let program else {
        throw ValidationError("--broker finds a broker to connect to; a broker announces itself")
      }
      return try discover(broker, program: program)
    }
    var endpoints: Endpoints
    if let control, let state {
      endpoints = Endpoints(control: control, state: state)
    } else {
      do {
        endpoints = try Endpoints.localDefault()
      } catch {
        // The runtime directory: a problem of the machine, not of the command line.
        throw CLIError(error)
      }
      if let control { endpoints.control = control }
      if let state { endpoints.state = state }
    }
    return endpoints
  }

  /// The pairing endpoint for `endpoints`: the flag, else the one discovery found, else
  /// derived from the control endpoint.
  public func pairingEndpoint(_ endpoints: Endpoints) -> String? {
    pairing ?? endpoints.pairing ?? Endpoints.pairing(forControl: endpoints.control)
  }

  /// The endpoints of the broker named `name` on the local network. Discovery supplies the
  /// address only: an answer announcing another key than the one `program` pinned for that
  /// address is refused, and CURVE then checks the pinned key itself.
  private func discover(_ name: String, program: String) throws -> Endpoints {
    guard control == nil, state == nil, pairing == nil else {
      throw ValidationError("give --broker or the endpoints (--control, --state), not both")
    }
    guard !insecure else {
      throw ValidationError(
        "--broker finds CURVE brokers only (they announce a key): drop --insecure")
    }
    let trust: ClientTrust
    do {
      trust = try ClientTrust(directory: try stateDirectory(program: program))
    } catch let error as StoreError {
      throw CLIError(error)
    }
    let pinnedID: (String) -> String? = { endpoint in
      (try? trust.pinnedKey(for: endpoint)).flatMap { $0 }.map { AllowList.id(of: $0) }
    }
    let answers: [BrowseAnswer]
    do {
      answers = try BrokerBrowser().browse(timeout: Self.discoveryWait) { answers in
        // A paired answer is final; an unpaired one waits for the rest (one may be an impostor).
        answers.contains {
          guard case .broker(let found) = $0, found.isNamed(name) else { return false }
          return found.trust(pinnedID: pinnedID(found.endpoints.control)) == .paired
        }
      }
    } catch {
      throw CLIError(error)
    }
    let brokers = answers.compactMap { answer -> DiscoveredBroker? in
      if case .broker(let found) = answer { found } else { nil }
    }
    do {
      return try DiscoveredBroker.choose(named: name, among: brokers, pinnedID: pinnedID)
        .endpoints
    } catch .notFound(let name, let seen) {
      let refusals = answers.compactMap { answer -> String? in
        guard case .refused(let instance, let address, let reason) = answer, instance == name
        else { return nil }
        return "refused the answer from \(address): \(reason)"
      }
      guard refusals.isEmpty else {
        throw CLIError(
          "the broker named \"\(name)\" announced an invalid record: "
            + refusals.joined(separator: "; "))
      }
      throw CLIError(DiscoveryError.notFound(name: name, seen: seen))
    } catch {
      throw CLIError(error)
    }
  }

  /// The connection string given with `--broker`, or in `$TENFOOT_BROKER` when no endpoint
  /// flag is given; nil if neither holds one.
  public func connectionString(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> ConnectionString? {
    let text =
      broker ?? (control == nil && state == nil ? environment["TENFOOT_BROKER"] : nil)
    guard let text, text.hasPrefix(ConnectionString.scheme) else { return nil }
    do {
      return try ConnectionString(parsing: text)
    } catch {
      throw ValidationError("--broker: \(error)")
    }
  }

  /// The broker key to trust: `--broker-key` (Z85, or the base64url form a connection string
  /// uses), else the connection string's; nil if neither gives one.
  public func trustedBrokerKey() throws -> String? {
    if let brokerKey {
      if brokerKey.count == 43, let bytes = Base64URL.decode(brokerKey), bytes.count == 32 {
        return Z85.encode(bytes)
      }
      return brokerKey
    }
    return try connectionString().flatMap { Z85.encode($0.key) }
  }

  /// Why a client knows no key for the broker at `endpoint`, and what to do: nothing listens
  /// there (a wrong port), or a screen needs the key given, or a remote needs to pair.
  static func noBrokerKey(_ endpoint: String, directory: String, program: String) -> String {
    if TCPProbe.refused(endpoint) {
      return ControlError.nothingListening(endpoint).description
    }
    guard program == "screen" else {
      return TrustError.notPaired(endpoint: endpoint, directory: directory).description
    }
    return "this screen knows no key for the broker at \(endpoint): start it with --broker and "
      + "the line tenfoot-broker invite prints (or --broker-key), and allow the screen's key "
      + "on the broker: tenfoot-broker remotes add --role screen --name NAME --key \"$(tenfoot-screen "
      + "--print-key)\""
  }

  /// Whether the connection uses CURVE: TCP without --insecure.
  public func usesCurve(_ endpoints: Endpoints) -> Bool { endpoints.usesTCP && !insecure }

  /// This program's state directory (created, private).
  public func stateDirectory(program: String) throws -> String {
    do {
      return try StateDirectory.prepare(explicit: stateDir, program: program)
    } catch {
      // A directory that cannot be made or is open to others: not a usage error.
      throw CLIError(error)
    }
  }

  /// CURVE settings for a client (`program` names its state subdirectory), or nil when the
  /// endpoints are local or --insecure.
  public func clientCurve(_ endpoints: Endpoints, program: String) throws -> ClientCurve? {
    guard usesCurve(endpoints) else { return nil }
    do {
      let trust = try ClientTrust(directory: try stateDirectory(program: program))
      return try trust.curve(for: endpoints.control, brokerKey: try trustedBrokerKey())
    } catch TrustError.notPaired(let endpoint, let directory) {
      throw CLIError(Self.noBrokerKey(endpoint, directory: directory, program: program))
    } catch let error as TrustError {
      throw CLIError(error)
    } catch let error as StoreError {
      throw CLIError(error)
    }
  }
}
