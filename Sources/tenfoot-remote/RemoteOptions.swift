import ArgumentParser
import Foundation
import RemoteCore
import TenFootCLI
import TenFootClient
import TenFootProtocol
import TenFootSecurity
import ZeroMQ

/// Options every remote subcommand takes (before or after the subcommand's name).
struct RemoteOptions: ParsableArguments {
  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var logging: LoggingOptions

  @Option(help: "Screen session to drive (default: the only one).")
  var screen: String?

  @Option(help: "Seconds to wait for each broker answer before giving up.")
  var timeout: Double = 3

  @Option(
    help: "Seconds to wait for a screen to register when there is none yet (0: fail at once).")
  var waitForScreen: Double = 0

  func validate() throws {
    guard timeout.isFinite, timeout > 0, timeout <= 3600 else {
      throw ValidationError("--timeout must be a number of seconds between 0 and 3600")
    }
    guard waitForScreen.isFinite, waitForScreen >= 0, waitForScreen <= 3600 else {
      throw ValidationError("--wait-for-screen must be a number of seconds between 0 and 3600")
    }
  }

  /// Connects, performs `action` and prints what it did.
  func perform(_ action: RemoteAction) throws {
    print(try connect().perform(action).line)
  }

  /// The endpoints the flags name (or the broker --broker names, or the local defaults); a
  /// bad one is a usage error, a broker not found is not.
  func endpoints() throws -> Endpoints {
    try connection.usageEndpoints(program: "remote")
  }

  /// The remote's trust store (its key pair and the pinned broker keys).
  func trust() throws -> ClientTrust {
    do {
      return try ClientTrust(directory: try connection.stateDirectory(program: "remote"))
    } catch let error as StoreError {
      throw CLIError(error)
    }
  }

  /// A remote connected to the broker and a screen session.
  func connect() throws -> RemoteClient {
    let logger = logging.bootstrap(label: "tenfoot.remote")
    let endpoints = try endpoints()
    if endpoints.usesTCP && connection.insecure {
      logger.warning(
        "plain TCP without CURVE: anyone on the network can read and inject input",
        metadata: ["zmq.control": "\(endpoints.control)"])
    }
    let curve = try connection.clientCurve(endpoints, program: "remote")
    let context = try Context()
    // With CURVE, a quarter of the first hello's time (at most 1 s) is kept for asking the
    // pairing endpoint which key the broker has if it does not answer, so the whole wait is
    // --timeout, as the message says.
    let probeBudget = curve == nil ? 0 : min(1, timeout / 4)
    var failure: RemoteError
    do {
      let client = try RemoteClient(
        context: context, endpoint: endpoints.control, stateEndpoint: endpoints.state,
        screen: screen, timeout: .seconds(timeout),
        welcomeTimeout: .seconds(timeout - probeBudget), name: "remote:\(getpid())", curve: curve,
        waitForScreen: .seconds(waitForScreen), logger: logger)
      // The broker answered over CURVE with this key: it holds it, so the key is pinned now.
      if let curve { try trust().pinAfterHandshake(curve, for: endpoints.control) }
      return client
    } catch let error as RemoteError {
      failure = error
    }
    if case .notWelcomed(let endpoint, _, let cause) = failure {
      failure = .notWelcomed(endpoint: endpoint, timeout: .seconds(timeout), cause: cause)
    }
    // With CURVE, "no answer" is also what a broker with a different key looks like (it
    // cannot read our handshake): ask its pairing endpoint which key it has now.
    if failure.brokerUnreachable, let curve,
      let presented = probeBrokerKey(context: context, endpoints: endpoints, timeout: probeBudget),
      presented != curve.brokerKey
    {
      throw TrustError.keyChanged(
        endpoint: endpoints.control, pinned: curve.brokerKey, presented: presented)
    }
    throw failure
  }

  /// A client of the broker's pairing endpoint, named `name`.
  func pairingClient(_ endpoints: Endpoints, context: Context, name: String) throws
    -> PairingClient
  {
    guard let pairing = connection.pairingEndpoint(endpoints) else {
      throw ValidationError("cannot derive the pairing endpoint: give --pairing")
    }
    return try PairingClient(
      context: context, pairingEndpoint: pairing, trust: try trust(), name: name,
      timeout: .seconds(timeout))
  }

  private func probeBrokerKey(context: Context, endpoints: Endpoints, timeout: Double) -> String? {
    var probe = self
    probe.timeout = timeout
    return try? probe.pairingClient(endpoints, context: context, name: "probe").probeKey()
  }
}
