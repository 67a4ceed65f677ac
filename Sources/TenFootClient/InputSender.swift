import FocusEngine
import TenFootProtocol
import ZeroMQ

/// A remote's input on a loop: events go to the broker one request at a time, in the order
/// they were made, each answer coming back as a loop event (`ControlRequests`), so the next
/// event goes out only once the broker answered the one before.
///
/// Input is never replayed late: past `capacity` waiting events the oldest go first; a
/// refused event is dropped and the next goes on; an event that gets no usable answer (its
/// deadline passed, or the broker closed the connection it went on) is dropped together with
/// every event waiting behind it, so a page streaming touch samples cannot queue a timeout per
/// sample. The owner hears of each drop (`failed`) to log it or end its session.
///
/// Owned by the loop's thread. Used by the screen (a web page acting as its remote) and by
/// each phone session of the phone remote, which attaches a fresh connection's requests
/// when it replaces one.
public final class InputSender {
  /// One input event: the engine's remote input, put on the wire only as it goes out.
  public typealias Event = RemoteInput

  /// Why an event was dropped.
  public enum Failure {
    /// The broker refused it; the next event goes on.
    case refused(BrokerRefusal)
    /// It got no usable answer: dropped together with the `dropped - 1` events behind it.
    case undelivered(ControlError, dropped: Int)
  }

  /// The most events kept waiting; older ones are dropped first.
  public static let capacity = 1024

  private let screenID: String
  private let timeout: Duration
  private unowned let loop: EventLoop
  private let failed: (Failure) throws -> Void
  private var requests: ControlRequests?
  /// Bumped by `attach`: an answer on an earlier connection is ignored.
  private var generation = 0
  private var backlog: [Event] = []
  private var inFlight = false
  /// When the last event went out (nil: none yet).
  public private(set) var lastSent: ContinuousClock.Instant?

  /// Sends input for `screenID` (empty: the broker's only session) on `loop`, each request
  /// waiting up to `timeout`; `failed` runs on the loop for each dropped event (a throw ends
  /// the loop's `run()`, as a handler's does). Nothing goes out before `attach`.
  public init(
    screenID: String, timeout: Duration, loop: EventLoop,
    failed: @escaping (Failure) throws -> Void
  ) {
    self.screenID = screenID
    self.timeout = timeout
    self.loop = loop
    self.failed = failed
  }

  /// How many events wait, the one in flight included.
  public var outstanding: Int { backlog.count + (inFlight ? 1 : 0) }

  /// Sends on `requests` from now on (nil: holds events until the next attach). The event in
  /// flight on the previous requests, whose owner closed them, is forgotten.
  public func attach(_ requests: ControlRequests?) {
    self.requests = requests
    generation += 1
    inFlight = false
    sendNext()
  }

  /// Queues `events` after those waiting (the oldest dropped past `capacity`) and sends the
  /// next if none is in flight.
  public func enqueue(_ events: [Event]) {
    backlog += events
    if backlog.count > Self.capacity { backlog.removeFirst(backlog.count - Self.capacity) }
    sendNext()
  }

  private func sendNext() {
    guard let requests, !inFlight, !backlog.isEmpty else { return }
    var input = Tenfoot_V1_Input()
    input.screenID = screenID
    input.event = Tenfoot_V1_Input.OneOf_Event(backlog.removeFirst())
    inFlight = true
    lastSent = loop.now
    let sent = generation
    requests.send(.input(input), timeout: timeout) { [weak self] result in
      guard let self, sent == generation else { return }
      inFlight = false
      try answered(result)
      sendNext()
    }
  }

  private func answered(_ result: Result<Tenfoot_V1_Envelope.OneOf_Body, ControlError>) throws {
    switch result {
    case .success(.error(let error)):
      try failed(.refused(BrokerRefusal(wire: error)))
    case .failure(let error):
      let dropped = backlog.count + 1
      backlog.removeAll()
      try failed(.undelivered(error, dropped: dropped))
    case .success: break
    }
  }
}
