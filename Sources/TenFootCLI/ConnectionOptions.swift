import ArgumentParser
import TenFootClient
import TenFootProtocol
import TenFootSecurity

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
      "The broker's CURVE public key (tenfoot-broker key prints it); pinned on first use.",
      valueName: "z85"))
  public var brokerKey: String?

  /// Creates default options.
  public init() {}

  /// The endpoints to use: the flags, else the local ipc defaults; TCP checked for --insecure.
  public func endpoints() throws -> Endpoints {
    var endpoints: Endpoints
    if let control, let state {
      endpoints = Endpoints(control: control, state: state)
    } else {
      endpoints = try Endpoints.localDefault()
      if let control { endpoints.control = control }
      if let state { endpoints.state = state }
    }
    return endpoints
  }

  /// The pairing endpoint for `endpoints`: the flag, else derived from the control endpoint.
  public func pairingEndpoint(_ endpoints: Endpoints) -> String? {
    pairing ?? Endpoints.pairing(forControl: endpoints.control)
  }

  /// Whether the connection uses CURVE: TCP without --insecure.
  public func usesCurve(_ endpoints: Endpoints) -> Bool { endpoints.usesTCP && !insecure }

  /// This program's state directory (created, private).
  public func stateDirectory(program: String) throws -> String {
    do {
      return try StateDirectory.prepare(explicit: stateDir, program: program)
    } catch {
      throw ValidationError("\(error)")
    }
  }

  /// CURVE settings for a client (`program` names its state subdirectory), or nil when the
  /// endpoints are local or --insecure.
  public func clientCurve(_ endpoints: Endpoints, program: String) throws -> ClientCurve? {
    guard usesCurve(endpoints) else { return nil }
    do {
      let trust = try ClientTrust(directory: try stateDirectory(program: program))
      return try trust.curve(for: endpoints.control, brokerKey: brokerKey)
    } catch let error as TrustError {
      throw CLIError(error.description)
    } catch let error as StoreError {
      throw CLIError(error.description)
    }
  }
}
