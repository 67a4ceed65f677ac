import Foundation

/// The control and state endpoints a process uses, and the rules for choosing them.
public struct Endpoints: Sendable, Equatable {
  /// The control endpoint (broker ROUTER).
  public var control: String
  /// The state endpoint (broker PUB).
  public var state: String

  /// Explicit endpoints.
  public init(control: String, state: String) {
    self.control = control
    self.state = state
  }

  /// The embedded local default: `ipc://` sockets in the private runtime directory.
  public static func localDefault(
    environment: [String: String] = ProcessInfo.processInfo.environment
  )
    throws(EndpointError) -> Endpoints
  {
    let directory = try runtimeDirectory(environment: environment)
    return Endpoints(control: "ipc://\(directory)/control", state: "ipc://\(directory)/state")
  }

  /// The private runtime directory: `$TENFOOT_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/tenfoot`,
  /// else `/tmp/tenfoot-<uid>`; created with mode 0700 if missing, and refused if another user
  /// owns it or others can enter it (other users must not reach the sockets).
  public static func runtimeDirectory(environment: [String: String]) throws(EndpointError)
    -> String
  {
    let path: String
    if let explicit = environment["TENFOOT_RUNTIME_DIR"], !explicit.isEmpty {
      path = explicit
    } else if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty {
      path = xdg + "/tenfoot"
    } else {
      path = "/tmp/tenfoot-\(getuid())"
    }
    if mkdir(path, 0o700) != 0 && errno != EEXIST {
      throw EndpointError(
        "cannot create the runtime directory \(path): \(String(cString: strerror(errno)))")
    }
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
      throw EndpointError("the runtime directory \(path) is not a directory")
    }
    guard info.st_uid == getuid() else {
      throw EndpointError("the runtime directory \(path) belongs to another user")
    }
    if info.st_mode & 0o077 != 0 {
      throw EndpointError(
        "the runtime directory \(path) is open to other users (mode \(String(info.st_mode & 0o777, radix: 8))); run: chmod 700 \(path)"
      )
    }
    return path
  }

  /// Refuses plain TCP unless `insecure` is set (CURVE arrives in a later release), and says
  /// how to proceed. `ipc://` and `inproc://` are always allowed.
  public func checkTransportSecurity(insecure: Bool) throws(EndpointError) {
    for endpoint in [control, state] where endpoint.hasPrefix("tcp://") && !insecure {
      throw EndpointError(
        "\(endpoint) is plain TCP: this release has no CURVE encryption yet, so TCP needs --insecure on every process (use it only on networks you trust)"
      )
    }
  }
}

/// An endpoint that cannot be used, with a sentence saying why.
public struct EndpointError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong and what to do.
  public var description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}
