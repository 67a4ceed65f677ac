import Foundation
import SystemCalls

/// A throw-away PostgreSQL 15 cluster for a test: `initdb` in a temporary directory (as the
/// unprivileged `postgres` user when the tests run as root), `pg_ctl start` on a free loopback
/// port with its socket in that directory, and `pg_ctl stop -m immediate` plus removal on
/// `stop()` or deinit. Trust authentication for the `tenfoot` role: loopback tests only.
public final class TestPostgres: @unchecked Sendable {
  // @unchecked Sendable is sound: `running` is only changed by the owning test's thread.
  /// The server binaries (Debian's `postgresql-15`).
  public static let binaries = "/usr/lib/postgresql/15/bin"
  /// The cluster's directory (data, socket, log).
  public let directory: String
  /// The TCP port it listens on (127.0.0.1).
  public let port: Int
  /// The address it listens on.
  public let host: String
  /// The network namespace the server runs in (`ip netns exec`), or nil for the test's own.
  public let namespace: String?
  private var running = false

  /// Whether the PostgreSQL tests must run (`scripts/test` sets TENFOOT_REQUIRE_POSTGRES):
  /// then a cluster that cannot start fails them instead of their being skipped.
  public static var isRequired: Bool {
    ProcessInfo.processInfo.environment["TENFOOT_REQUIRE_POSTGRES"] == "1"
  }

  /// Whether the server binaries are installed.
  public static var isInstalled: Bool {
    FileManager.default.isExecutableFile(atPath: binaries + "/initdb")
  }

  /// Whether to run the PostgreSQL tests here: required, or installed.
  public static var shouldRun: Bool { isRequired || isInstalled }

  /// Creates and starts a cluster on `host` (a loopback address) and a free port; throws
  /// with `initdb`'s or `pg_ctl`'s output when it cannot.
  ///
  /// Across network namespaces: `namespace` runs the server inside that namespace (listening
  /// on `host`, an address there, and on `port`), and `trustedNetwork` (a CIDR such as
  /// `10.78.0.0/24`) lets the brokers of that network in (trust authentication; `initdb -A
  /// trust` alone only trusts loopback). `psql` still reaches it from here through the
  /// cluster's Unix socket, which no network namespace hides.
  public init(
    host: String = "127.0.0.1", port: Int? = nil, namespace: String? = nil,
    trustedNetwork: String? = nil
  ) throws {
    guard Self.isInstalled else {
      throw ChildProcessError(
        description: "PostgreSQL 15 is not installed (\(Self.binaries)): run scripts/bootstrap")
    }
    self.host = host
    self.namespace = namespace
    var template = Array("/tmp/tfpg-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
    directory = String(cString: made)
    self.port = try port ?? Self.freePort(host: host)
    if getuid() == 0 { try Self.run("/bin/chown", ["postgres:postgres", directory]) }
    try Self.run(
      Self.binaries + "/initdb",
      ["-D", directory + "/data", "-A", "trust", "-U", "tenfoot", "--no-sync", "-E", "UTF8"])
    if let trustedNetwork {
      let rules = try FileHandle(
        forWritingTo: URL(fileURLWithPath: directory + "/data/pg_hba.conf"))
      try rules.seekToEnd()
      try rules.write(contentsOf: Data("host all all \(trustedNetwork) trust\n".utf8))
      try rules.close()
    }
    try start()
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// The store URL the broker takes (`--store`).
  public var url: String { "postgres://tenfoot@\(host):\(port)/postgres" }

  /// Starts the server (again) and waits until it accepts connections.
  public func start() throws {
    try Self.run(
      Self.binaries + "/pg_ctl",
      [
        "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "20",
        "-o", "-p \(port) -k \(directory) -c listen_addresses=\(host) -c fsync=on", "start",
      ], namespace: namespace)
    running = true
  }

  /// Stops the server at once (`-m immediate`: like a crash; the next start recovers).
  public func stop() {
    guard running else { return }
    running = false
    _ = try? Self.run(
      Self.binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
  }

  /// The server's log, for failure messages.
  public var log: String {
    (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
  }

  /// Runs `psql` with `sql` and returns its unaligned output (for checks a test makes).
  public func psql(_ sql: String) throws -> String {
    try Self.run(
      Self.binaries + "/psql",
      ["-h", directory, "-p", "\(port)", "-U", "tenfoot", "-d", "postgres", "-At", "-c", sql])
  }

  /// Runs a tool (initdb and pg_ctl as `postgres` when root) and returns its output; throws with it on failure.
  /// `posix_spawn` and `waitpid`, not Foundation's `Process`: `pg_ctl start` leaves a daemon
  /// behind, and `Process.waitUntilExit` was seen to miss `runuser`'s exit then.
  @discardableResult
  static func run(_ tool: String, _ arguments: [String], namespace: String? = nil) throws
    -> String
  {
    // initdb and pg_ctl refuse to run as root; psql as root is fine (and its output stays free
    // of runuser's "could not change directory" warnings).
    let asPostgres = getuid() == 0 && tool.hasPrefix(binaries) && !tool.hasSuffix("/psql")
    let inNamespace = namespace.map { ["/usr/sbin/ip", "netns", "exec", $0] } ?? []
    let argv =
      inNamespace
      + (asPostgres
        ? ["/usr/sbin/runuser", "-u", "postgres", "--", tool] + arguments : [tool] + arguments)
    var template = Array("/tmp/tfpg-out-XXXXXX".utf8CString)
    let output = mkstemp(&template)
    guard output >= 0 else { throw CocoaError(.fileWriteUnknown) }
    let outputPath = String(cString: template)
    defer {
      close(output)
      unlink(outputPath)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output, 1)
    posix_spawn_file_actions_adddup2(&actions, output, 2)
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { for argument in cArguments { free(argument) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
    guard spawned == 0 else {
      throw ChildProcessError(
        description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    _ = SystemCall.retryingInterrupts { waitpid(pid, &status, 0) }
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    let exited = (status & 0x7f) == 0
    let code = (status >> 8) & 0xff
    guard exited, code == 0 else {
      throw ChildProcessError(
        description:
          "\(tool) \(arguments.joined(separator: " ")) failed (status \(status)):\n\(text)")
    }
    return text.hasSuffix("\n") ? String(text.dropLast()) : text
  }

  /// A TCP port no one listens on now (the kernel's pick, released).
  public static func freePort(host: String) throws -> Int {
    try freePorts(1, host: host)[0]
  }

  /// `count` distinct TCP ports no one listens on now. Each stays bound until all are picked:
  /// a port picked and released at once can be the kernel's next pick too (two endpoints of one
  /// broker once got the same port that way).
  public static func freePorts(_ count: Int, host: String) throws -> [Int] {
    var descriptors: [Int32] = []
    defer { descriptors.forEach { close($0) } }
    var ports: [Int] = []
    for _ in 0..<count {
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
      descriptors.append(descriptor)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = 0
      inet_pton(AF_INET, host, &address.sin_addr)
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
          bind(descriptor, socketAddress, length) == 0
            && getsockname(descriptor, socketAddress, &length) == 0
        }
      }
      guard bound else {
        throw ChildProcessError(description: "cannot find a free port on \(host)")
      }
      ports.append(Int(UInt16(bigEndian: address.sin_port)))
    }
    return ports
  }
}
