import ArgumentParser
import TenFootProtocol

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

  /// Allow plain TCP.
  @Flag(help: "Allow unencrypted tcp:// endpoints (trusted networks only).")
  public var insecure = false

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
    try endpoints.checkTransportSecurity(insecure: insecure)
    return endpoints
  }
}
