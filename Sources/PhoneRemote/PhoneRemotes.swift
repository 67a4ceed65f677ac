import Foundation
import Logging
import QREncoder
import ScreenCore
import Synchronization
import WebScreen
import ZeroMQ

/// The phone remote (`tenfoot-screen --phone-remote`): the QR code the screen shows, the
/// one-time tokens in it, and one `PhoneSession` per phone let in.
///
/// A phone that opens the code's URL gets the remote-only page; when the page connects, its
/// token is used up and a session starts: it makes a fresh CURVE key pair and pairs it with the
/// broker through the broker's own pairing endpoint, exactly as `tenfoot-remote pair` does,
/// reading the PIN from the pairing prompt the broker publishes to this screen (the screen
/// sees the PIN the way a person in front of it does). The phone is then an allow-listed
/// remote named "phone N": `tenfoot-broker remotes list` shows it and `remotes revoke` cuts it
/// off, which its page shows. Every session runs on one loop thread (`PhoneLoop`), however
/// many phones there are.
public final class PhoneRemotes: Sendable {
  let settings: PhoneRemoteSettings
  private let logger: Logger
  private let tokens: Mutex<PhoneTokens>
  /// Every session by its secret, ended ones too, so a page reconnecting to one hears why.
  private let sessions = Mutex<[String: PhoneSession]>([:])
  private let count = Mutex(0)
  private let base = Mutex<String?>(nil)
  /// The loop every session runs on (its thread starts with the first session).
  let loop: PhoneLoop
  /// Called with the QR code's JSON whenever it changes (the renderer shows it on its pages).
  private let onCode = Mutex<(@Sendable (String) -> Void)?>(nil)
  private let timer = Mutex<Task<Void, Never>?>(nil)
  /// Called with the code's URL whenever it changes (renderers that draw the code themselves).
  private let urlObservers = Mutex<[@Sendable (String) -> Void]>([])

  /// A phone remote for `settings`. Throws if the loop's eventfd cannot be made.
  public init(settings: PhoneRemoteSettings, logger: Logger) throws(ZeroMQError) {
    self.settings = settings
    self.logger = logger
    tokens = Mutex(PhoneTokens(now: .now))
    loop = try PhoneLoop(settings: settings, logger: logger)
  }

  /// Calls `observe` with the QR code's URL once the page server listens and whenever the
  /// code changes (the terminal renderer draws the code from it). Register before the web
  /// renderer starts.
  public func observeURL(_ observe: @escaping @Sendable (String) -> Void) {
    urlObservers.withLock { $0.append(observe) }
  }

  /// The URL the QR code holds now (nil before the page server listens).
  public var currentURL: String? {
    guard let base = base.withLock({ $0 }) else { return nil }
    let token = tokens.withLock { $0.token(at: .now).token }
    return "\(base)/phone?token=\(token)"
  }

  /// The page server listens on `host`:`port`: the QR code can be made; `show` gets it now
  /// and whenever a token is used or expires.
  public func listening(
    host: String, port: Int, showCode show: @escaping @Sendable (String) -> Void
  ) {
    let shown = settings.publicHost ?? host
    base.withLock {
      $0 = "http://\(shown.contains(":") ? "[\(shown)]" : shown):\(port)"
    }
    onCode.withLock { $0 = show }
    publishCode()
    let task = Task.detached { [weak self] in
      // Replaces an expired token: a timer, woken once per token lifetime.
      while !Task.isCancelled {
        try? await Task.sleep(for: PhoneTokens.lifetime / 10)
        guard let self else { return }
        if self.tokens.withLock({ $0.token(at: .now).changed }) { self.publishCode() }
      }
    }
    timer.withLock { $0 = task }
  }

  /// Shows the current code on the pages and logs its URL (the token only at debug level:
  /// whoever has it can pair a phone).
  private func publishCode() {
    guard let url = currentURL, let show = onCode.withLock({ $0 }) else { return }
    do {
      let code = try QRCode(url)
      logger.notice(
        "phone remote code",
        metadata: ["url": "\(SecretURL.redacted(url))", "qr.version": "\(code.version)"])
      logger.debug("phone remote code with its token", metadata: ["url": "\(url)"])
      show(WebMessages.phoneCode(url: url, svg: code.svg()))
      for observe in urlObservers.withLock({ $0 }) { observe(url) }
    } catch {
      logger.error("phone remote code not made", metadata: ["error": "\(error)"])
    }
  }

  /// Whether a GET of the phone page with `token` (or a running session's `session`) may see
  /// the page; the refusal otherwise.
  func admits(token: String?, session: String?) -> PhoneTokens.Refusal? {
    if let session {
      guard let found = sessions.withLock({ $0[session] }) else { return .unknown }
      return found.hasEnded ? .ended : nil
    }
    guard let token else { return .unknown }
    return tokens.withLock { $0.check(token, at: .now) }
  }

  /// Uses `token` and starts a phone's session; or finds the running session `secret`.
  func session(token: String?, secret: String?) -> Result<PhoneSession, PhoneTokens.Refusal> {
    if let secret {
      guard let session = sessions.withLock({ $0[secret] }) else { return .failure(.unknown) }
      return session.hasEnded ? .failure(.ended) : .success(session)
    }
    guard let token else { return .failure(.unknown) }
    if let refusal = tokens.withLock({ $0.use(token, at: .now) }) {
      return .failure(refusal)
    }
    publishCode()
    let number = count.withLock { count in
      count += 1
      return count
    }
    let session = PhoneSession(name: "phone \(number)", waker: loop.stopper.waker)
    sessions.withLock { $0[session.secret] = session }
    loop.start(session)
    return .success(session)
  }

  /// Stops every session (the loop closes their sockets on its thread) and the token timer.
  public func stop() {
    timer.withLock { $0?.cancel() }
    loop.stop()
  }
}
