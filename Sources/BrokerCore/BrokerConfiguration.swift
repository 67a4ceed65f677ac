import BrokerDomain
import TenFootProtocol
import TenFootStore

/// Where and how a broker listens.
public struct BrokerConfiguration: Sendable {
  /// Endpoints the control ROUTER binds (e.g. `ipc:///run/user/0/tenfoot/control`).
  public var controlEndpoints: [String]
  /// Endpoints the state PUB binds.
  public var stateEndpoints: [String]
  /// The largest inbound control message; larger ones make libzmq drop the sender's connection.
  /// Larger messages come in parts (`MessagePart`) of up to `MessageParts.partSize` bytes, so
  /// this must stay above a part's envelope.
  public var maxMessageSize: Int64 = WireProtocol.defaultMaxMessageSize
  /// The largest whole message sent in parts (a layout of 100,000 items is a few MiB).
  public var maxWholeMessageSize = WireProtocol.defaultMaxWholeMessageSize
  /// The most bytes all connections' incomplete messages in parts may hold together; a part
  /// past it is refused `RATE_LIMITED` and its message discarded.
  public var partBytesTotal = 48 * 1024 * 1024
  /// How long a message in parts may wait for its next part before it is discarded.
  public var partDeadline: Duration = .seconds(10)
  /// Messages queued per subscriber before PUB drops (screens then resync by sequence gap).
  public var stateHighWaterMark: Int32 = 10_000
  /// How often the broker heartbeat is published.
  public var heartbeatInterval: Duration = .seconds(1)
  /// How long a screen session lives with no screen heartbeat before it is dropped.
  public var screenGrace: Duration = .seconds(30)
  /// The broker's name in Welcome messages.
  public var name = "tenfoot-broker \(TenFootVersion.string)"
  /// CURVE encryption, ZAP allow-list and pairing; nil for ipc:// and --insecure brokers.
  public var security: BrokerSecurity?
  /// libzmq I/O threads of the broker's context (`--io-threads`). One keeps the plain press
  /// path shortest; two spread connections over two threads, so a peer pipelining large CURVE
  /// messages holds up at most half the others (docs/performance.md, "abuse").
  public var ioThreads: Int32 = 1
  /// Sustained control messages per second each peer may send (more get `RATE_LIMITED`).
  public var peerRate: Double = 2000
  /// Control messages a peer may send in one burst.
  public var peerBurst: Double = 2000
  /// Sustained control bytes per second each peer may send. A screen registers its layout (a
  /// few MiB at most) once at start and patches it now and then, a remote's press is about
  /// 100 bytes: 512 KiB a second with bursts of one largest message serves both, while a peer
  /// that keeps sending huge registrations gets one through every few seconds and the rest
  /// refused (`RATE_LIMITED`) unread, so the loop time it takes stays small.
  public var peerByteRate: Double = 512 * 1024
  /// Control bytes a peer may send at once (one whole message of the largest size, in parts).
  public var peerByteBurst: Double = Double(WireProtocol.defaultMaxWholeMessageSize)
  /// When a CURVE key that keeps sending over its budget is cut off and refused at ZAP, and
  /// for how long (`--quarantine-mebibytes`, `--quarantine-seconds`): the budget is checked
  /// after libzmq's I/O thread has decrypted a message, so only refusing the key spares that
  /// thread, which every other peer's messages pass through.
  public var quarantine = PeerQuarantine.Policy.standard
  /// The largest message a remote's key may send (its input, focus and debug requests are
  /// small); a screen's may be `maxMessageSize`. `ZMQ_MAXMSGSIZE` is per socket, not per peer,
  /// so this is checked once the message is read.
  public var maxRemoteMessageSize = 64 * 1024
  /// Messages libzmq queues per control connection before it stops reading that connection
  /// (the peer's sends then wait): with messages of up to `maxMessageSize`, a peer that
  /// pipelines huge ones can make the broker hold at most this many of them at once. 16 keeps
  /// a peer pipelining registrations of the largest layout under 200 MiB of broker memory and
  /// measured no throughput change against 10,000 (alternating runs, `tenfoot-bench --only
  /// throughput`).
  public var controlReceiveHighWaterMark: Int32 = 16
  /// Screen ids one screen key may claim by registering them (`--screens-per-key`).
  public var screensPerKey = 16
  /// At most this many bytes of requests are read in one loop iteration (one group commit),
  /// so one batch holds at most this much, however large each request.
  public var drainByteBudget = 8 * 1024 * 1024
  /// Control messages of at least this many bytes (a large registration, patch or app
  /// reaction) are decoded, checked and mapped on a worker thread, not on the loop, so other
  /// peers are served meanwhile; smaller ones (presses) are served on the loop at once.
  public var preparationThreshold = 64 * 1024
  /// The most bytes of large messages a peer (a key, or a connection without one) may have in
  /// preparation or waiting to be applied; more are refused `RATE_LIMITED`.
  public var preparationBytesPerPeer = 16 * 1024 * 1024
  /// The same bound for all peers together.
  public var preparationBytesTotal = 48 * 1024 * 1024
  /// The most messages a connection may have queued behind its own large ones (they wait, in
  /// order, for them to be applied); more are refused `RATE_LIMITED`.
  public var queuedBehindPreparation = 256
  /// The data directory whose session store (`sessions.sqlite`) keeps per-screen focus,
  /// selections and text across restarts; nil keeps them in memory.
  public var sessionStoreDirectory: String?
  /// The most requests that may gather behind a zone store's commit in flight (served, their
  /// outputs held until their own commit); past it, or past `commitBacklogBytes`, a request
  /// is answered RATE_LIMITED unread.
  public var commitBacklogMessages = 10_000
  /// The most request bytes that may gather behind a zone store's commit in flight.
  public var commitBacklogBytes = 16 * 1024 * 1024
  /// Opens the session store in place of `sessionStoreDirectory`'s SQLite (a zone's
  /// PostgreSQL store); called on the broker's thread, which then owns the store.
  public var sessionStore: (@Sendable () throws -> any DurableSessionStore)?
  /// The time the broker's rules run at (flood budgets, pairing, screen expiry, log limits):
  /// the monotonic clock unless a test sets its own.
  public var clock: BrokerClock = .monotonic
  /// The epoch; by default the wall-clock time of start in microseconds, so it grows.
  public var epoch: UInt64?

  /// A configuration with the given endpoints and default limits.
  public init(controlEndpoints: [String], stateEndpoints: [String]) {
    self.controlEndpoints = controlEndpoints
    self.stateEndpoints = stateEndpoints
  }
}
