import Foundation

/// The control and state endpoints a process uses, and the rules for choosing them.
public struct Endpoints: Sendable, Equatable {
  /// The control endpoint (broker ROUTER).
  public var control: String
  /// The state endpoint (broker PUB).
  public var state: String
  /// The pairing endpoint when it is known rather than derived (a discovered broker announces
  /// its pairing port); nil derives it from the control endpoint (`pairing(forControl:)`).
  public var pairing: String?

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
      throw .cannotCreate(path: path, errno: errno)
    }
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
      throw .notADirectory(path: path)
    }
    guard info.st_uid == getuid() else {
      throw .foreignOwner(path: path, owner: info.st_uid)
    }
    if info.st_mode & 0o077 != 0 {
      throw .openToOthers(path: path, mode: info.st_mode & 0o777)
    }
    return path
  }

  /// Whether any endpoint crosses the network (`tcp://`): then CURVE is required unless
  /// `--insecure` was given.
  public var usesTCP: Bool { [control, state].contains { $0.hasPrefix("tcp://") } }

  /// The broker's pairing endpoint for a control endpoint: `tcp://HOST:PORT` gives
  /// `tcp://HOST:PORT+2` (`tcp://HOST:*` gives `tcp://HOST:*`, for a broker that picks its
  /// ports); `ipc://DIR/control` gives `ipc://DIR/pairing`; nil otherwise.
  public static func pairing(forControl control: String) -> String? {
    if control.hasPrefix("tcp://"), control.hasSuffix(":*") { return control }
    if control.hasPrefix("tcp://"), let colon = control.lastIndex(of: ":"),
      let port = Int(control[control.index(after: colon)...]), port > 0, port < 65534
    {
      return String(control[..<colon]) + ":\(port + 2)"
    }
    if control.hasPrefix("ipc://"), control.hasSuffix("/control") {
      return String(control.dropLast("control".count)) + "pairing"
    }
    return nil
  }

  /// Whether an endpoint's host is a loopback address (`127.x`, `::1`, `localhost`).
  public static func isLoopback(_ endpoint: String) -> Bool {
    guard endpoint.hasPrefix("tcp://") else { return true }
    let rest = endpoint.dropFirst("tcp://".count)
    let host = rest.lastIndex(of: ":").map { String(rest[..<$0]) } ?? String(rest)
    return host.hasPrefix("127.") || host == "[::1]" || host == "localhost"
  }
}

/// Why the private runtime directory (where the local `ipc://` endpoints live) cannot be
/// used, with its cause; `description` says what is wrong and what to do.
public enum EndpointError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `mkdir` failed with `errno`.
  case cannotCreate(path: String, errno: Int32)
  /// Something other than a directory is at the path.
  case notADirectory(path: String)
  /// The directory belongs to another user (`owner`, a uid).
  case foreignOwner(path: String, owner: uid_t)
  /// Other users can enter the directory (`mode`, the permission bits).
  case openToOthers(path: String, mode: mode_t)

  /// What is wrong and what to do.
  public var description: String {
    switch self {
    case .cannotCreate(let path, let code):
      "cannot create the runtime directory \(path): \(String(cString: strerror(code)))"
    case .notADirectory(let path): "the runtime directory \(path) is not a directory"
    case .foreignOwner(let path, _): "the runtime directory \(path) belongs to another user"
    case .openToOthers(let path, let mode):
      "the runtime directory \(path) is open to other users (mode \(String(mode, radix: 8))); "
        + "run: chmod 700 \(path)"
    }
  }
}
