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
    /// Each overlay's value (JSON: an object, or `null` when hidden) and a version that grows
    /// whenever it changes (0: never shown).
    var overlays: [Overlay: (version: Int, json: String)] = [:]
    /// `PageTrace`'s stamps so far (empty: not tracing).
    var trace: [UInt64] = []
  }

  /// What a page shows over the layout, each sent as `{"<name>": value}` when it changes.
  enum Overlay: String, CaseIterable, Sendable {
    /// The PIN while a remote pairs.
    case pairing
    /// `true` while pairing is closed after too many wrong PINs.
    case pairingClosed
    /// The phone remote's QR code.
    case phoneCode
    /// The link to the broker (`{"up":false,…}` while the broker does not answer).
    case link
  }

  private struct State {
    var latest: Update?
    var overlays: [Overlay: (version: Int, json: String)] = [:]
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

  /// Shows (an object) or hides (`null`) `overlay` on every page, now and on pages that
  /// connect later. Before the first frame it goes out with that frame.
  func publish(_ overlay: Overlay, _ json: String) {
    state.withLock { state in
      state.overlays[overlay] = ((state.overlays[overlay]?.version ?? 0) + 1, json)
      if let latest = state.latest { Self.send(latest, in: &state) }
    }
  }

  /// Stamps `update` with the current overlays, keeps it as the latest, and hands it to every
  /// page (called under the lock).
  private static func send(_ update: Update, in state: inout State) {
    var update = update
    update.overlays = state.overlays
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
