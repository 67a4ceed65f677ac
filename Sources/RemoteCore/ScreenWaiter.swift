import TenFootClient
import TenFootProtocol
import ZeroMQ

/// Waits for a screen to register: a subscriber to the screens' state topics on the broker's
/// state socket (`screen/<id>`, or every `screen/` topic when any screen will do). A
/// registration publishes the screen's snapshot there, so the wait is an awaited event, not a
/// polling loop. Owned by the thread that made it, like its socket.
final class ScreenWaiter {
  private let subscriber: Socket

  /// Subscribes to `screen`'s state topic (every screen's if nil) at `stateEndpoint` (a zone's
  /// comma-separated endpoints: each of them).
  init(context: Context, stateEndpoint: String, screen: String?, curve: ClientCurve?)
    throws(ZeroMQError)
  {
    subscriber = try Socket(context, .subscriber)
    if let curve {
      try subscriber.setCurveClient(serverKey: curve.brokerKey, keyPair: curve.keyPair)
    }
    try subscriber.setLinger(milliseconds: 0)
    try subscriber.subscribe(
      screen.map { WireProtocol.stateTopic(screen: $0) } ?? WireProtocol.stateTopic(screen: ""))
    // A zone's brokers: whichever is active publishes the registration.
    for endpoint in Endpoints.list(stateEndpoint) { try subscriber.connect(endpoint) }
  }

  /// Returns when a screen's state was published (drained) or `deadline` passed, whichever
  /// comes first; the caller asks the broker again either way.
  func awaitRegistration(until deadline: ContinuousClock.Instant) throws(ZeroMQError) {
    var published = false
    repeat {
      while try subscriber.receiveMultipart(dontWait: true) != nil { published = true }
      if published { return }
    } while try subscriber.awaitInput(until: deadline)
  }
}
