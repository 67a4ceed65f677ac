import Foundation
import TenFootClient
import TestSupport
import ZeroMQ

/// Starts the processes a benchmark measures: the real `tenfoot-broker` binary and the bare
/// ZeroMQ floor relay (this executable's `floor-relay` subcommand).
enum BenchProcesses {
  /// Where the pair of endpoints of one run lives.
  enum Transport: String, CaseIterable, Codable {
    /// `ipc://` in a private temporary directory.
    case ipc
    /// `tcp://127.0.0.1` on ports the server picks.
    case tcp

    /// Control and state endpoints to bind for this transport.
    func bindEndpoints(in directory: TemporaryDirectory) -> (control: String, state: String) {
      switch self {
      case .ipc: ("ipc://\(directory.path)/control", "ipc://\(directory.path)/state")
      case .tcp: ("tcp://127.0.0.1:*", "tcp://127.0.0.1:*")
      }
    }
  }

  /// A started server and the endpoints it bound.
  struct Server {
    let process: ChildProcess
    let control: String
    let state: String
    /// Nanoseconds from launch to the ready line.
    let startNanoseconds: UInt64
    /// What a client needs to connect, for a CURVE server (nil: plain).
    var curve: ClientCurve? = nil
    /// Other allow-listed keys of a CURVE server (`durableBroker(otherKeys:)`): budgets are per
    /// key, so a peer that must not share the benchmark key's budget uses one of these.
    var otherCurves: [ClientCurve] = []

    /// A DEALER connected to the control endpoint (with CURVE when the server uses it).
    func dealer(_ context: Context) throws -> Socket {
      let socket = try Socket(context, .dealer)
      try secure(socket)
      try socket.connect(control)
      return socket
    }

    /// Makes `socket` a CURVE client of this server, if it is a CURVE server.
    func secure(_ socket: Socket) throws {
      if let curve { try socket.setCurveClient(serverKey: curve.brokerKey, keyPair: curve.keyPair) }
    }

    /// Stops the server with SIGTERM (so a profiler around it can write its output), then
    /// SIGKILL if it still runs after 60 s. One SIGTERM is enough for the TenFoot binaries
    /// (TenFootCLI's SignalWatcher never loses one) and for the floor relay (which dies by the
    /// default action); repeating it every 2 s is a harmless safety net.
    func stop() {
      for _ in 0..<30 {
        process.signal()
        if (try? process.waitForExit(timeout: 2)) != nil { return }
      }
      process.kill()
    }
  }

  /// The broker's per-peer flood limit (`--peer-rate`, messages per second) for benchmark runs:
  /// high, because one benchmark remote sends far more than a person can (the broker's default
  /// is 2,000 a second per peer, and messages over it are dropped unanswered).
  nonisolated(unsafe) static var peerRate = 1_000_000
  // nonisolated(unsafe) is sound: set once by `RunCommand` before any benchmark starts, on the
  // only thread that reads it.

  /// Starts `tenfoot-broker` on `transport` and waits for its ready line; `peerRate` is its
  /// `--peer-rate` (the benchmark's high `peerRate` unless given; with it, the byte budget is
  /// as high, else the broker's default).
  static func broker(
    _ transport: Transport, in directory: TemporaryDirectory, peerRate: Int = peerRate,
    screenGrace: Int? = nil
  ) throws -> Server {
    let kibibytesRate = peerRate >= Self.peerRate ? 1_000_000 : 512
    let (control, state) = transport.bindEndpoints(in: directory)
    return try start(
      TestEnvironment.binary("tenfoot-broker"),
      ["--control", control, "--state", state, "--insecure", "--log-level", "warning"]
        + BrokerOptions.supported([
          ("--peer-rate", "\(peerRate)"), ("--peer-kibibytes-rate", "\(kibibytesRate)"),
          ("--screen-grace", screenGrace.map { "\($0)" }),
        ]),
      ready: "tenfoot-broker ready")
  }

  /// Where durable brokers keep their data directories (`--durable-directory`); nil: inside
  /// each run's temporary directory under /tmp (the machine's disk here).
  nonisolated(unsafe) static var durableBase: String?
  // nonisolated(unsafe) is sound: set once by `RunCommand` before any benchmark starts, on the
  // only thread that reads it.

  /// A fresh data directory for a durable broker of a run whose files live in `directory`.
  static func dataDirectory(in directory: TemporaryDirectory) -> String {
    guard let base = durableBase else { return directory.path + "/data" }
    return base + "/tenfoot-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// Starts the production configuration: `tenfoot-broker` over TCP with CURVE (ZAP
  /// allow-list) and its data directory at `dataDirectory` (durable sessions), with one client
  /// key pair allowed, which every benchmark peer uses. With `sessionsInMemory` the same CURVE
  /// broker keeps its sessions in memory (`--sessions-in-memory`): no store, no fsync.
  /// `screenGrace` (seconds) overrides the broker's `--screen-grace`; `options` (`--name`,
  /// value) replace the benchmark's own value of the same option or add to them.
  static func durableBroker(
    dataDirectory: String, peerRate: Int = peerRate, sessionsInMemory: Bool = false,
    screenGrace: Int? = nil, otherKeys: Int = 0, options: [(String, String?)] = []
  ) throws -> Server {
    let keyPair = try CurveKeyPair.generate()
    let others = try (0..<otherKeys).map { _ in try CurveKeyPair.generate() }
    let broker = TestEnvironment.binary("tenfoot-broker")
    for (index, key) in ([keyPair] + others).enumerated() {
      let add = try ChildProcess(
        broker,
        [
          "remotes", "add", "--data-dir", dataDirectory, "--name", "bench\(index)", "--role",
          "screen", "--key", key.publicKey,
        ])
      guard try add.waitForExit(timeout: 20) == 0 else {
        throw BenchError("cannot allow the benchmark key: \(add.errors)")
      }
    }
    let key = try ChildProcess(broker, ["key", "--data-dir", dataDirectory])
    guard try key.waitForExit(timeout: 20) == 0, let brokerKey = key.output.first else {
      throw BenchError("cannot read the broker key: \(key.errors)")
    }
    var server = try start(
      broker,
      [
        "--control", "tcp://127.0.0.1:*", "--state", "tcp://127.0.0.1:*", "--data-dir",
        dataDirectory, "--log-level", "warning",
      ] + (sessionsInMemory ? ["--sessions-in-memory"] : [])
        + BrokerOptions.supported(
          [
            ("--peer-rate", "\(peerRate)"),
            ("--peer-kibibytes-rate", "\(peerRate >= Self.peerRate ? 1_000_000 : 512)"),
            // The scale part registers 1,000 screens with the one benchmark key.
            ("--screens-per-key", "2000"),
            ("--screen-grace", screenGrace.map { "\($0)" }),
          ].filter { own in !options.contains { $0.0 == own.0 } } + options),
      ready: "tenfoot-broker ready")
    server.curve = ClientCurve(keyPair: keyPair, brokerKey: brokerKey)
    server.otherCurves = others.map { ClientCurve(keyPair: $0, brokerKey: brokerKey) }
    return server
  }

  /// Starts the bare ZeroMQ relay that stands for the floor, with the given reply and
  /// publication sizes; with `curve`, its sockets are CURVE servers (no ZAP) and the
  /// returned server carries the client settings.
  static func floorRelay(
    _ transport: Transport, in directory: TemporaryDirectory, replyBytes: Int, topic: String,
    publicationBytes: Int, curve: Bool = false, walDirectory: String? = nil
  ) throws -> Server {
    let (control, state) = transport.bindEndpoints(in: directory)
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let serverKeys = curve ? try CurveKeyPair.generate() : nil
    var server = try start(
      executable,
      [
        "floor-relay", "--control", control, "--state", state, "--reply-bytes", "\(replyBytes)",
        "--topic", topic, "--publication-bytes", "\(publicationBytes)",
      ] + (serverKeys.map { ["--curve-secret-key", $0.secretKey] } ?? [])
        + (walDirectory.map { ["--wal-directory", $0] } ?? []),
      ready: "floor-relay ready")
    if let serverKeys {
      server.curve = ClientCurve(
        keyPair: try CurveKeyPair.generate(), brokerKey: serverKeys.publicKey)
    }
    return server
  }

  private static func start(_ executable: String, _ arguments: [String], ready: String) throws
    -> Server
  {
    let start = DispatchTime.now().uptimeNanoseconds
    let process = try ChildProcess(executable, arguments)
    let line = try process.waitForLine(timeout: 20, ready) { $0.hasPrefix(ready) }.line
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    let fields = Self.fields(of: line)
    guard let control = fields["control"], let state = fields["state"] else {
      throw BenchError("no endpoints in the ready line: \(line)")
    }
    return Server(process: process, control: control, state: state, startNanoseconds: elapsed)
  }

  /// The `name=value` words of a line a program printed (a ready line, the flooder's totals).
  static func fields(of line: String) -> [String: String] {
    var fields: [String: String] = [:]
    for word in line.split(separator: " ") {
      let parts = word.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
    }
    return fields
  }
}

/// The options of the `tenfoot-broker` under test, so one harness drives older builds too
/// (`tenfoot-bench compare` against a revision from before an option existed): an option the
/// binary does not list in `serve --help` is left out, and the run measures that build as it
/// was.
enum BrokerOptions {
  nonisolated(unsafe) private static var help: [String: String] = [:]
  // nonisolated(unsafe) is sound: benchmarks start brokers from one thread.

  /// The `(option, value)` pairs the binary accepts, flattened; nil values are left out.
  static func supported(_ options: [(String, String?)]) -> [String] {
    let broker = TestEnvironment.binary("tenfoot-broker")
    let text =
      help[broker]
      ?? {
        let process = try? ChildProcess(broker, ["serve", "--help"])
        _ = try? process?.waitForExit(timeout: 20)
        let text = ((process?.output ?? []) + (process?.errors ?? [])).joined(separator: "\n")
        help[broker] = text
        return text
      }()
    return options.flatMap { option, value -> [String] in
      guard let value, text.contains(option + " ") || text.contains(option + "\n") else {
        return []
      }
      return [option, value]
    }
  }
}
