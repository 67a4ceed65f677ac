import Synchronization

/// Hands frames from the screen's loop thread to every connected page (each on the server's
/// threads), and the latest frame to a page that connects later.
///
/// Each update carries the layout it belongs to (strings are shared, not copied), so a page
/// that skipped updates because it was slow still gets the layout before the next frame.
final class FrameBroadcaster: Sendable {
  /// One published state.
  struct Update: Sendable {
    /// Increases whenever the layout changes.
    var layoutVersion: Int
    /// The layout message (JSON).
    var layout: String
    /// The frame message (JSON).
    var frame: String
    /// Increases whenever the pairing overlay changes (0: never shown).
    var pairingVersion = 0
    /// The pairing overlay (JSON: an object, or `null` when hidden).
    var pairing = "null"
    /// Increases whenever the phone remote's QR code changes (0: never shown).
    var phoneVersion = 0
    /// The phone remote's QR code (JSON: an object, or `null` when off).
    var phone = "null"
  }

  private struct State {
    var latest: Update?
    var pairing = (version: 0, json: "null")
    var phone = (version: 0, json: "null")
    var subscribers: [Int: AsyncStream<Update>.Continuation] = [:]
    var nextID = 0
  }

  private let state = Mutex(State())
  /// How many updates a slow page may fall behind before the oldest are skipped.
  static let bufferSize = 32

  /// Sends `update` to every page and keeps it for pages that connect later.
  func publish(_ update: Update) {
    state.withLock { state in
      Self.send(update, in: &state)
    }
  }

  /// Shows (an object) or hides (`null`) the pairing overlay on every page, now and on pages
  /// that connect later. Before the first frame it goes out with that frame.
  func publishPairing(_ json: String) {
    state.withLock { state in
      state.pairing = (state.pairing.version + 1, json)
      if let latest = state.latest { Self.send(latest, in: &state) }
    }
  }

  /// Shows (an object) or hides (`null`) the phone remote's QR code on every page, like
  /// `publishPairing`.
  func publishPhone(_ json: String) {
    state.withLock { state in
      state.phone = (state.phone.version + 1, json)
      if let latest = state.latest { Self.send(latest, in: &state) }
    }
  }

  /// Stamps `update` with the current pairing overlay and QR code, keeps it as the latest, and hands it to
  /// every page (called under the lock).
  private static func send(_ update: Update, in state: inout State) {
    var update = update
    (update.pairingVersion, update.pairing) = state.pairing
    (update.phoneVersion, update.phone) = state.phone
    state.latest = update
    for continuation in state.subscribers.values { continuation.yield(update) }
  }

  /// A stream of updates starting with the latest one (if any); it ends when `finishAll` is
  /// called or the consumer stops iterating.
  func subscribe() -> AsyncStream<Update> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Update.self, bufferingPolicy: .bufferingNewest(Self.bufferSize))
    let id = state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      if let latest = state.latest { continuation.yield(latest) }
      state.subscribers[id] = continuation
      return id
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { state in _ = state.subscribers.removeValue(forKey: id) }
    }
    return stream
  }

  /// The number of connected pages.
  var subscriberCount: Int { state.withLock { $0.subscribers.count } }

  /// Ends every stream (the server is stopping).
  func finishAll() {
    let continuations = state.withLock { state in
      defer { state.subscribers.removeAll() }
      return Array(state.subscribers.values)
    }
    for continuation in continuations { continuation.finish() }
  }
}
