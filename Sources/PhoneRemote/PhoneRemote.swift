import Dispatch
import Foundation
import Logging
import QREncoder
import ScreenCore
import Synchronization
import TenFootClient
import TenFootProtocol
import TenFootSecurity
import WebScreen
import ZeroMQ

/// What the phone remote needs from the screen: where the broker is and how to reach it.
public struct PhoneRemoteSettings: Sendable {
  /// The ZeroMQ context the sessions' sockets are made in.
  public var context: Context
  /// The broker's control endpoint.
  public var controlEndpoint: String
  /// The broker's pairing endpoint.
  public var pairingEndpoint: String
  /// The broker's public key (Z85), the one this screen trusts.
  public var brokerKey: String
  /// The screen session the phones control.
  public var screenID: String
  /// The host name or address put in the QR code's URL (nil: the address the page listens
  /// on). A phone must be able to reach it.
  public var publicHost: String?
  /// How long one request to the broker may take.
  public var requestTimeout: Duration = .seconds(3)
  /// Where a session's trust would pin keys (never written: sessions pin nothing).
  public var stateDirectory: String

  /// Creates settings.
  public init(
    context: Context, controlEndpoint: String, pairingEndpoint: String, brokerKey: String,
    screenID: String, publicHost: String?, stateDirectory: String
  ) {
    self.context = context
    self.controlEndpoint = controlEndpoint
    self.pairingEndpoint = pairingEndpoint
    self.brokerKey = brokerKey
    self.screenID = screenID
    self.publicHost = publicHost
    self.stateDirectory = stateDirectory
  }
}

/// The phone remote (`tenfoot-screen --phone-remote`): the QR code the screen shows, the
/// one-time tokens in it, and one `PhoneSession` per phone let in.
///
/// A phone that opens the code's URL gets the remote-only page; when the page connects, its
/// token is used up and a session starts: it makes a fresh CURVE key pair and pairs it with the
/// broker through the broker's own pairing endpoint, exactly as `tenfoot-remote pair` does,
/// reading the PIN from the pairing prompt the broker publishes to this screen (the screen
/// sees the PIN the way a person in front of it does). The phone is then an allow-listed
/// remote named "phone N": `tenfoot-broker remotes list` shows it and `remotes revoke` cuts it
/// off, which its page shows.
public final class PhoneRemotes: Sendable {
  let settings: PhoneRemoteSettings
  private let logger: Logger
  private let tokens: Mutex<PhoneTokens>
  private let sessions = Mutex<[String: PhoneSession]>([:])
  /// The secrets of sessions that ended, so a page reconnecting with one hears why.
  private let endedSecrets = Mutex<Set<String>>([])
  private let count = Mutex(0)
  private let base = Mutex<String?>(nil)
  let prompts = PairingPrompts()
  /// Called with the QR code's JSON whenever it changes (the renderer shows it on its pages).
  private let onCode = Mutex<(@Sendable (String) -> Void)?>(nil)
  private let timer = Mutex<Task<Void, Never>?>(nil)
  /// Called with the code's URL whenever it changes (renderers that draw the code themselves).
  private let urlObservers = Mutex<[@Sendable (String) -> Void]>([])

  /// A phone remote for `settings`.
  public init(settings: PhoneRemoteSettings, logger: Logger) {
    self.settings = settings
    self.logger = logger
    tokens = Mutex(PhoneTokens(now: .now))
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
      guard sessions.withLock({ $0[session] }) == nil else { return nil }
      return endedSecrets.withLock { $0.contains(session) } ? .ended : .unknown
    }
    guard let token else { return .unknown }
    return tokens.withLock { $0.check(token, at: .now) }
  }

  /// Uses `token` and starts a phone's session; or finds the running session `secret`.
  func session(token: String?, secret: String?) -> Result<PhoneSession, PhoneTokens.Refusal> {
    if let secret {
      guard let session = sessions.withLock({ $0[secret] }) else {
        return .failure(endedSecrets.withLock { $0.contains(secret) } ? .ended : .unknown)
      }
      return .success(session)
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
    let session = PhoneSession(
      name: "phone \(number)", remotes: self, logger: logger)
    sessions.withLock { $0[session.secret] = session }
    session.start()
    return .success(session)
  }

  /// The session ended (revoked or failed): it cannot be reconnected to.
  func ended(_ session: PhoneSession) {
    sessions.withLock { _ = $0.removeValue(forKey: session.secret) }
    endedSecrets.withLock { _ = $0.insert(session.secret) }
  }

  /// Stops every session and the token timer.
  public func stop() {
    timer.withLock { $0?.cancel() }
    for session in sessions.withLock({ Array($0.values) }) { session.stop() }
  }
}

/// The pairing prompts the broker publishes to this screen, handed from the screen's loop
/// thread to the phone sessions waiting for their PIN.
final class PairingPrompts: Sendable {
  private let latest = Mutex<PairingOverlay?>(nil)
  private let waiters = Mutex<[DispatchSemaphore]>([])

  /// A prompt arrived (nil: withdrawn).
  func post(_ overlay: PairingOverlay?) {
    latest.withLock { $0 = overlay }
    for waiter in waiters.withLock({ $0 }) { waiter.signal() }
  }

  /// The PIN shown for the remote called `name`, waiting for its prompt until `deadline`.
  func pin(for name: String, until deadline: DispatchTime) -> String? {
    let semaphore = DispatchSemaphore(value: 0)
    waiters.withLock { $0.append(semaphore) }
    defer { waiters.withLock { $0.removeAll { $0 === semaphore } } }
    while true {
      if let overlay = latest.withLock({ $0 }), overlay.remoteName == name { return overlay.pin }
      if semaphore.wait(timeout: deadline) == .timedOut {
        return latest.withLock { $0 }.flatMap { $0.remoteName == name ? $0.pin : nil }
      }
    }
  }
}

/// One phone let in by the QR code: its own key pair, paired with the broker, and a thread
/// that sends the page's input as that key (never through the screen's own connection).
final class PhoneSession: Sendable {
  /// Where a session is, as its page shows it.
  enum Status: Sendable, Equatable {
    case pairing
    case connected(id: String)
    case revoked
    case failed(String)
  }

  /// The secret in the page's URL after it connected (`/phone?session=…`), so a page that
  /// reloads or reconnects finds its session again.
  let secret = Hex.encode(PairingProof.randomBytes(16))
  let name: String
  private let remotes: PhoneRemotes
  private let logger: Logger
  private let events = Mutex<[Tenfoot_V1_Input.OneOf_Event]>([])
  private let wake = DispatchSemaphore(value: 0)
  private let stopped = Atomic(false)
  private let state = Mutex(
    (status: Status.pairing, watchers: [Int: AsyncStream<Status>.Continuation](), next: 0))

  init(name: String, remotes: PhoneRemotes, logger: Logger) {
    self.name = name
    self.remotes = remotes
    var logger = logger
    logger[metadataKey: "phone"] = "\(name)"
    self.logger = logger
  }

  /// Starts the session's thread (pairing, then input).
  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "tenfoot-phone"
    thread.start()
  }

  /// Ends the thread at its next wake-up.
  func stop() {
    stopped.store(true, ordering: .relaxed)
    wake.signal()
  }

  /// Queues the page's `event` for the broker.
  func enqueue(_ event: Tenfoot_V1_Input.OneOf_Event) {
    events.withLock { events in
      if events.count >= ScreenInputQueue.capacity { events.removeFirst() }
      events.append(event)
    }
    wake.signal()
  }

  /// The session's status now and at every change, until the consumer stops.
  func statuses() -> AsyncStream<Status> {
    let (stream, continuation) = AsyncStream.makeStream(of: Status.self)
    let id = state.withLock { state in
      let id = state.next
      state.next += 1
      continuation.yield(state.status)
      state.watchers[id] = continuation
      return id
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.watchers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Sets the status and tells every watcher, outside the lock: a continuation's
  /// `onTermination` (which takes the lock) may run inside `yield` or `finish`, and taking the
  /// lock again on the same thread traps.
  private func set(_ status: Status) {
    let watchers = state.withLock { state in
      state.status = status
      return Array(state.watchers.values)
    }
    for watcher in watchers { watcher.yield(status) }
  }

  private func run() {
    let settings = remotes.settings
    do {
      let id = try pair(settings)
      logger.notice("phone paired", metadata: ["peer": "\(id)"])
      let control = try ControlConnection(
        context: settings.context, endpoint: settings.controlEndpoint,
        sender: name.replacingOccurrences(of: " ", with: "-"),
        curve: ClientCurve(keyPair: keyPair(), brokerKey: settings.brokerKey))
      _ = try control.hello(
        role: .remote, client: "tenfoot-screen phone remote", timeout: settings.requestTimeout)
      set(.connected(id: id))
      try serve(control, settings)
    } catch let error as ControlError {
      if case .notPaired = error {
        logger.notice("phone revoked: the broker refuses its key")
        set(.revoked)
      } else if case .refused(let refusal) = error, refusal.code == .notPaired {
        logger.notice("phone revoked: the broker refuses its key")
        set(.revoked)
      } else {
        logger.warning("phone session ended", metadata: ["error": "\(error)"])
        set(.failed("\(error)"))
      }
    } catch {
      logger.warning("phone session ended", metadata: ["error": "\(error)"])
      set(.failed("\(error)"))
    }
    remotes.ended(self)
    let watchers = state.withLock { state in
      defer { state.watchers.removeAll() }
      return Array(state.watchers.values)
    }
    for watcher in watchers { watcher.finish() }
  }

  private let keys = Mutex<CurveKeyPair?>(nil)

  /// This session's key pair, made on first use (held in memory only: a phone session that
  /// ends is never resumed, and its allow-list entry is revoked or left for `remotes revoke`).
  private func keyPair() throws -> CurveKeyPair {
    if let existing = keys.withLock({ $0 }) { return existing }
    let fresh = try CurveKeyPair.generate()
    keys.withLock { $0 = fresh }
    return fresh
  }

  /// Pairs the session's key as the broker's pairing endpoint asks any remote to, with the PIN
  /// the broker shows on this screen. Returns the allow-list id.
  private func pair(_ settings: PhoneRemoteSettings) throws -> String {
    let trust = ClientTrust(directory: settings.stateDirectory, keyPair: try keyPair())
    let client = try PairingClient(
      context: settings.context, pairingEndpoint: settings.pairingEndpoint, trust: trust,
      name: name, timeout: settings.requestTimeout)
    let challenge = try client.begin()
    guard challenge.brokerKeyText == settings.brokerKey else {
      throw PhoneError.brokerKeyDiffers(presented: challenge.brokerKeyText)
    }
    guard let pin = remotes.prompts.pin(for: name, until: .now() + .seconds(15)) else {
      throw PhoneError.noPrompt
    }
    switch try client.attempt(pin: pin, challenge: challenge) {
    case .paired(let id): return id
    case .refused(let message, _): throw PhoneError.pairingRefused(message)
    }
  }

  /// Sends the page's input as this phone until stopped; when idle, asks the broker every
  /// second whether it still lets the key in, so a revoke shows on the page at once. An
  /// unanswered check replaces the connection with a fresh one (in this loop, not by
  /// recursion: a broker away for hours does not grow the stack).
  private func serve(_ connection: ControlConnection, _ settings: PhoneRemoteSettings) throws {
    var control = connection
    while !stopped.load(ordering: .relaxed) {
      let woken = wake.wait(timeout: .now() + .seconds(1)) == .success
      let batch = events.withLock { events in
        defer { events.removeAll() }
        return events
      }
      if !woken && batch.isEmpty {
        do {
          _ = try control.hello(
            role: .remote, client: "tenfoot-screen phone remote",
            timeout: settings.requestTimeout)
        } catch {
          guard error.isNoAnswer else { throw error }
          // The broker may have closed the connection on a revoke: a fresh connection's
          // handshake says whether the key is still let in (ZAP refusal: `notPaired`).
          let fresh = try ControlConnection(
            context: settings.context, endpoint: settings.controlEndpoint,
            sender: name.replacingOccurrences(of: " ", with: "-"),
            curve: ClientCurve(keyPair: keyPair(), brokerKey: settings.brokerKey))
          _ = try fresh.hello(
            role: .remote, client: "tenfoot-screen phone remote",
            timeout: settings.requestTimeout)
          control = fresh
        }
        continue
      }
      for event in batch {
        var input = Tenfoot_V1_Input()
        input.screenID = settings.screenID
        input.event = event
        let reply: Tenfoot_V1_Envelope.OneOf_Body?
        do {
          reply = try control.request(.input(input), timeout: settings.requestTimeout)
        } catch {
          guard error.isNoAnswer else { throw error }
          reply = nil
        }
        // No answer: the rest of the batch is dropped, never replayed late.
        guard let reply else {
          logger.notice("phone input not delivered", metadata: ["dropped": "\(batch.count)"])
          break
        }
        if case .error(let error) = reply {
          if error.code == .notPaired { throw ControlError.refused(error) }
          logger.notice(
            "broker refused phone input",
            metadata: ["code": "\(error.code.name)", "message": "\(error.message)"])
        }
      }
    }
  }
}

/// Why a phone session could not start.
enum PhoneError: Error, CustomStringConvertible {
  /// The pairing endpoint presented another key than the broker this screen trusts.
  case brokerKeyDiffers(presented: String)
  /// The broker's pairing prompt for this phone never reached the screen.
  case noPrompt
  /// The broker refused the PIN.
  case pairingRefused(String)

  var description: String {
    switch self {
    case .brokerKeyDiffers(let presented):
      "the pairing endpoint presented key \(presented), not the broker's this screen trusts"
    case .noPrompt: "the broker's pairing prompt did not reach this screen within 15 s"
    case .pairingRefused(let message): "the broker refused the pairing: \(message)"
    }
  }
}
