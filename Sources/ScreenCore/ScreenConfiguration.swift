import FocusEngine
import TenFootClient
import TenFootProtocol
import ZeroMQ

/// What a screen process connects to and shows.
public struct ScreenConfiguration: Sendable {
  /// The broker's endpoints.
  public var endpoints: Endpoints
  /// The session id (`--id`).
  public var screenID: String
  /// The layout to register; nil shows an existing session without registering (a mirror).
  public var layout: Layout?
  /// How long one control request may take before it is retried (see
  /// `Endpoints.requestTimeout(for:)`).
  public var requestTimeout: Duration
  /// Fault injection for tests: deltas with these sequence numbers are dropped once, as if
  /// the network lost them, to exercise the resync path.
  public var dropDeltas: Set<UInt64> = []
  /// CURVE settings for TCP endpoints (nil: ipc:// or --insecure).
  public var curve: ClientCurve?
  /// How this screen draws (reduced motion rests the parallax in every frame it renders).
  public var display = DisplayOptions.standard
  /// Called once, on the loop's thread, after the broker first answered (over CURVE: it
  /// proved it holds the broker key), so the program can pin the key then and not before.
  public var whenBrokerAnswered: (@Sendable () -> Void)?
  /// Set when the screen's app answers later, from another thread, through
  /// `ScreenClient.reactions` (a web page): the broker is told the screen has an app, and a
  /// frame with an activation, back or home that the app has not answered within this
  /// deadline gets an empty reaction, so the inputs held behind it go on before the broker's
  /// own 250 ms deadline.
  public var appAnswersLater: Duration?
  /// The time the loop runs on: heartbeats, the link's silence and request deadlines (a test
  /// injects a `ManualClock`).
  public var clock = LoopClock.continuous

  /// A configuration for `screenID` at `endpoints`.
  public init(endpoints: Endpoints, screenID: String, layout: Layout?) {
    self.endpoints = endpoints
    self.screenID = screenID
    self.layout = layout
    requestTimeout = Endpoints.requestTimeout(for: endpoints.control)
  }
}
