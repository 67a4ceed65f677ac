/// Several renderers drawing the same frames (headless JSON lines plus SVG files; the
/// terminal plus the phone remote's page server).
public final class CompositeRenderer: Renderer, PairingDisplay, LinkDisplay {
  private let renderers: [any Renderer]

  /// Draws every frame with each of `renderers`, in order.
  public init(_ renderers: [any Renderer]) { self.renderers = renderers }

  /// Starts each renderer.
  public func start() throws { for renderer in renderers { try renderer.start() } }

  /// Draws the frame with each renderer.
  public func render(_ frame: ScreenFrame) throws {
    for renderer in renderers { try renderer.render(frame) }
  }

  /// The first renderer's wake descriptor, if any renderer has one.
  public var wakeFileDescriptor: Int32? { renderers.lazy.compactMap(\.wakeFileDescriptor).first }

  /// Passes the wake-up to every renderer that can be woken.
  public func handleWake() throws {
    for renderer in renderers where renderer.wakeFileDescriptor != nil {
      try renderer.handleWake()
    }
  }

  /// Shows (or hides) the pairing PIN with every renderer that shows pairing.
  public func showPairing(_ overlay: PairingOverlay?) throws {
    for case let display as any PairingDisplay in renderers { try display.showPairing(overlay) }
  }

  /// Shows (or removes) the closed-pairing notice with every renderer that shows pairing.
  public func showPairingClosed(_ closed: Bool) throws {
    for case let display as any PairingDisplay in renderers {
      try display.showPairingClosed(closed)
    }
  }

  /// Shows (or removes) the broker-gone banner with every renderer that shows it.
  public func showLink(_ link: BrokerLink) throws {
    for case let display as any LinkDisplay in renderers { try display.showLink(link) }
  }

  /// Stops each renderer, last first.
  public func stop() { for renderer in renderers.reversed() { renderer.stop() } }
}
