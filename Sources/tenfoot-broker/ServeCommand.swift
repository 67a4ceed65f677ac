import ArgumentParser
import BrokerCore
import CMalloc
import Foundation
import Logging
import TenFootCLI
import TenFootPostgres
import TenFootProtocol
import TenFootSecurity
import ZeroMQ
import ZoneBroker

/// `tenfoot-broker serve` (the default): the broker itself.
struct ServeCommand: ParsableCommand {
  /// Fixes glibc's mmap threshold at 256 KiB. By default glibc raises it to the size of the
  /// largest block freed (up to 32 MiB), after which multi-MiB messages (a peer pipelining
  /// registrations of the largest layout) come from the heap and stay resident once freed:
  /// the broker's RSS grew to 900 MiB under `tenfoot-bench --only abuse`. With the threshold
  /// fixed, every large block is its own mapping, returned to the system when freed.
  static func returnLargeBlocksToTheSystem() {
    _ = tenfoot_fix_mmap_threshold(256 * 1024)
  }

  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve screens and remotes (the default subcommand).",
    discussion: """
      With no flags the broker listens on ipc:// sockets in the private runtime directory \
      ($TENFOOT_RUNTIME_DIR, else $XDG_RUNTIME_DIR/tenfoot, else /tmp/tenfoot-<uid>), where \
      tenfoot-screen and tenfoot-remote find it without flags. Prints one line \
      "tenfoot-broker ready control=… state=…" on standard output once it is listening.
      tcp:// endpoints are encrypted and authenticated with CURVE (docs/security.md, "Keys, the \
      allow-list and pairing") unless --insecure is given.
      """)

  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var logging: LoggingOptions
  @OptionGroup var data: DataOptions
  @OptionGroup var storeOptions: StoreOptions
  @OptionGroup var announceOptions: AnnounceOptions

  @Option(help: "Messages queued per screen before the state socket drops (screens resync).")
  var stateHighWaterMark: Int32 = 10_000

  @Option(help: "Control messages per second each peer may send; more get rate_limited.")
  var peerRate: Double = 2000

  @Option(
    help:
      "Control kibibytes per second each peer may send (bursts of one largest message); more get rate_limited."
  )
  var peerKibibytesRate: Double = 512

  @Option(
    help: """
      Mebibytes a CURVE key may send over its byte budget (forgiven over 10 s) before it is \
      quarantined: its connections cut and refused at ZAP for --quarantine-seconds. 0 never \
      quarantines.
      """)
  var quarantineMebibytes: Double = 64

  @Option(help: "Seconds a quarantined key is refused.")
  var quarantineSeconds: Double = 60

  @Option(
    help: """
      libzmq I/O threads (1–8). 2 keeps other peers answered while one sends large CURVE \
      messages (about half the p99), at about 13 µs more per press over ipc.
      """)
  var ioThreads: Int32 = 1

  @Option(
    help: """
      The largest control message, in KiB (200–16384). Larger messages come in parts of 192 \
      KiB; libzmq decrypts each message whole on its I/O thread, reading no other peer meanwhile.
      """)
  var maxMessageKibibytes = Int(WireProtocol.defaultMaxMessageSize / 1024)

  @Option(help: "Screen ids one screen key may claim by registering them.")
  var screensPerKey = 16

  @Flag(
    help: """
      Keep screen sessions in memory only (lost on restart), even with CURVE or a data \
      directory. For measuring the store's own cost; not for production.
      """)
  var sessionsInMemory = false

  func validate() throws {
    guard connection.broker == nil else {
      throw ValidationError(
        "--broker finds a broker to connect to; a broker announces itself (see --name)")
    }
    guard (1...8).contains(ioThreads) else {
      throw ValidationError("--io-threads must be between 1 and 8")
    }
    guard peerRate.isFinite, peerRate >= 1 else {
      throw ValidationError("--peer-rate must be at least 1 message per second")
    }
    guard peerKibibytesRate.isFinite, peerKibibytesRate >= 1 else {
      throw ValidationError("--peer-kibibytes-rate must be at least 1")
    }
    guard quarantineMebibytes.isFinite, quarantineMebibytes >= 0 else {
      throw ValidationError("--quarantine-mebibytes must be 0 or more")
    }
    guard quarantineSeconds.isFinite, (1...86_400).contains(quarantineSeconds) else {
      throw ValidationError("--quarantine-seconds must be between 1 and 86400")
    }
    guard (200...16_384).contains(maxMessageKibibytes) else {
      throw ValidationError("--max-message-kibibytes must be between 200 and 16384")
    }
    guard (1...100_000).contains(screensPerKey) else {
      throw ValidationError("--screens-per-key must be between 1 and 100000")
    }
    guard screenGrace.isFinite, screenGrace >= 0.1, screenGrace <= 86_400 else {
      throw ValidationError("--screen-grace must be between 0.1 and 86400 seconds")
    }
    guard lease.isFinite, leaseDuration >= ZoneLeadership.minimumLease, lease <= 60 else {
      throw ValidationError("--lease must be between 0.25 and 60 seconds")
    }
  }

  @Option(
    help: ArgumentHelp(
      "Seconds a screen session lives with no screen heartbeat before it is dropped.",
      valueName: "seconds"))
  var screenGrace: Double = 30

  @Option(
    help: ArgumentHelp(
      "With --store: seconds the active broker may go without renewing its lease before a standby takes over.",
      discussion: """
        What a standby waits when the active broker's host is cut off or the broker is \
        frozen (a killed broker's lock is released at once). Shorter: faster takeover; a store \
        that takes longer than four fifths of it to answer makes the active broker step down \
        (safe, fenced, but a takeover). 0.25 to 60; give every broker of a zone the same value.
        """, valueName: "seconds"))
  var lease: Double = Double(ZoneLeadership.defaultLease / .milliseconds(1)) / 1000

  /// `--lease` as a duration.
  private var leaseDuration: Duration { .milliseconds(Int64((lease * 1000).rounded())) }

  func run() throws {
    Self.returnLargeBlocksToTheSystem()
    let logger = logging.bootstrap(label: "tenfoot.broker")
    let endpoints = try endpoints(logger: logger)
    let configuration = try brokerConfiguration(endpoints)
    if let url = try storeOptions.postgres() {
      // A zone on PostgreSQL: stand by until this broker holds the zone's lock.
      let leadership = ZoneLeadership(
        url: url, zone: storeOptions.zone, name: storeOptions.name,
        lease: leaseDuration, logger: logger)
      let announce = announceOptions
      let zone = storeOptions.zone
      let control = ZoneControl()
      SignalWatcher.onTerminate { control.terminate() }
      try ZoneServe(
        url: url, leadership: leadership, base: configuration, logger: logger,
        announce: { broker in
          announce.announce(
            broker, security: configuration.security, zone: zone, logger: logger)
        }
      ).run(control: control)
      return
    }
    let broker = try BrokerThread(
      configuration: configuration, context: try BrokerThread.context(for: configuration),
      logger: logger)
    SignalWatcher.onTerminate { broker.stopper.stop() }
    let pairing =
      broker.pairingEndpoints.isEmpty
      ? "" : " pairing=\(broker.pairingEndpoints.joined(separator: ","))"
    print(
      "tenfoot-broker ready control=\(broker.controlEndpoints.joined(separator: ",")) state=\(broker.stateEndpoints.joined(separator: ",")) epoch=\(broker.epoch)\(pairing)"
    )
    fflush(nil)
    let announcer = announceOptions.announce(
      broker, security: configuration.security, zone: "", logger: logger)
    broker.wait()
    announcer?.stop()
  }

  /// The endpoints to bind; warns about plain TCP, and clears the socket files a broker that
  /// died left behind.
  private func endpoints(logger: Logger) throws -> Endpoints {
    let endpoints: Endpoints
    do {
      endpoints = try connection.endpoints()
    } catch let error as CLIError {
      throw error
    } catch {
      throw ValidationError("\(error)")
    }
    if endpoints.usesTCP && !connection.usesCurve(endpoints) {
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
    return endpoints
  }

  /// The broker's configuration from the flags: durable sessions with a data directory, CURVE
  /// and pairing on TCP unless --insecure.
  private func brokerConfiguration(_ endpoints: Endpoints) throws -> BrokerConfiguration {
    var configuration = BrokerConfiguration(
      controlEndpoints: [endpoints.control], stateEndpoints: [endpoints.state])
    configuration.stateHighWaterMark = stateHighWaterMark
    configuration.screenGrace = .seconds(screenGrace)
    configuration.ioThreads = ioThreads
    configuration.peerRate = peerRate
    configuration.peerBurst = max(10, peerRate)  // One second of messages at once.
    configuration.peerByteRate = peerKibibytesRate * 1024
    configuration.screensPerKey = screensPerKey
    configuration.quarantine.margin = quarantineMebibytes * 1_048_576
    configuration.quarantine.duration = .seconds(quarantineSeconds)
    configuration.maxMessageSize = Int64(maxMessageKibibytes) * 1024
    // Durable sessions need a data directory: given explicitly (--data-dir or
    // $TENFOOT_STATE_DIR), or the one CURVE uses anyway. The default local demo keeps its
    // sessions in memory and touches no data directory.
    if !sessionsInMemory,
      data.dataDir != nil || ProcessInfo.processInfo.environment["TENFOOT_STATE_DIR"] != nil
        || connection.usesCurve(endpoints)
    {
      configuration.sessionStoreDirectory = try data.directory()
    }
    if connection.usesCurve(endpoints) {
      guard let pairing = connection.pairingEndpoint(endpoints) else {
        throw ValidationError("cannot derive the pairing endpoint: give --pairing")
      }
      let directory = try data.directory()
      configuration.security = BrokerSecurity(
        keyPair: try data.keyPair(), allowListPath: directory + "/allow-list.json",
        pairingEndpoints: [pairing])
    }
    return configuration
  }
}
