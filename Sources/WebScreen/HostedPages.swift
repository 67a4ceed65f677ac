import Hummingbird
import Logging
import ScreenCore

/// Pages another target serves on the web renderer's server beside the screen's own (the
/// phone remote's, `PhoneRemotes`), behind the same connection cap, timeouts, origin check and
/// security headers. The web renderer calls these from its own start, pairing and stop.
public protocol HostedPages: Sendable {
  /// Adds the pages' HTTP routes to `router`; a WebSocket path's plain GET is answered with
  /// ``WebRenderer/notUpgraded(_:admission:logger:refused:)`` and `admission`.
  func addRoutes(
    to router: Router<BasicRequestContext>, admission: WebSocketAdmission, logger: Logger)

  /// Adds the pages' WebSockets to `router`.
  func addSockets(to router: Router<PageSocketContext>, logger: Logger)

  /// The server listens on `host`:`port`; `showCode` puts a phone code message (its JSON
  /// value) on the screen's own pages, now and whenever it changes.
  func listening(host: String, port: Int, showCode: @escaping @Sendable (String) -> Void)

  /// The broker's pairing prompt reached the screen (nil: withdrawn).
  func showPairing(_ overlay: PairingOverlay?)

  /// The server stops: ends whatever the pages started.
  func stop()
}
