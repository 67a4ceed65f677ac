import Logging
import ScreenCore
import ZeroMQ

/// The phone sessions running on the phone loop, by secret, and the broker's latest pairing
/// prompt to this screen (a session waiting for its PIN reads it, whichever came first: the
/// prompt or the broker's challenge). Owned by the loop's thread.
final class PhoneLinks {
  private unowned let loop: EventLoop
  private let settings: PhoneRemoteSettings
  private let logger: Logger
  private var links: [String: PhoneLink] = [:]
  private var prompt: PairingOverlay?

  /// The sessions of `loop`.
  init(loop: EventLoop, settings: PhoneRemoteSettings, logger: Logger) {
    self.loop = loop
    self.settings = settings
    self.logger = logger
  }

  /// How many sessions run.
  var count: Int { links.count }

  /// After a wake-up: starts the new `sessions`, hands a new `prompt` to those waiting for
  /// their PIN, and sends what every page queued.
  func take(_ sessions: [PhoneSession], prompt: PairingOverlay??) {
    for session in sessions {
      var logger = logger
      logger[metadataKey: "phone"] = "\(session.name)"
      let link = PhoneLink(
        session: session, settings: settings, loop: loop, logger: logger,
        prompt: { [unowned self] in self.prompt },
        ended: { [unowned self] ended in
          // Dropped after the handler that ended it returned (it may be on its stack).
          loop.schedule(after: .zero) { [unowned self] in links[ended.session.secret] = nil }
        })
      links[session.secret] = link
      link.start()
    }
    if case .some(let new) = prompt {
      self.prompt = new
      for link in links.values { link.promptArrived(new) }
    }
    for link in links.values { link.takeInput() }
  }

  /// Closes every session's sockets (the loop stopped); their pages hear they ended.
  func closeAll() {
    for link in links.values {
      link.close()
      link.session.end(.failed("the screen stopped"))
    }
    links.removeAll()
  }
}
