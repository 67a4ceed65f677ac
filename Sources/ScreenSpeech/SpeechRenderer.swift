import ScreenCore

/// Speaks each frame's announcement (`tenfoot-screen --speak`), beside another renderer, and
/// says when the broker's link is lost and back (``BrokerLink/announcement``).
public final class SpeechRenderer: Renderer, LinkDisplay {
  private let speaker: Speaker

  /// Speaks through `speaker`.
  public init(speaker: Speaker) { self.speaker = speaker }

  /// Nothing to prepare.
  public func start() throws {}

  /// Says the frame's announcement, if it has one.
  public func render(_ frame: ScreenFrame) throws {
    if let announcement = frame.announcement { speaker.say(announcement) }
  }

  /// Says that the broker is unreachable, or back (called once per change of the link).
  public func showLink(_ link: BrokerLink) throws { speaker.say(link.announcement) }

  /// Never needs waking.
  public var wakeFileDescriptor: Int32? { nil }

  /// Never called.
  public func handleWake() throws {}

  /// Stops speaking.
  public func stop() { speaker.stop() }
}
