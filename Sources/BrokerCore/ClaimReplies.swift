import TenFootProtocol

/// Replies that wait for a screen's claim to be written to the allow-list: a screen key's
/// first registration of an id is answered only once the binding is durable (or failed), so
/// the screen's requests after the reply find it. The reply may be ready first (a commit on
/// the loop) or last (a zone's commit in flight behind the claim's write): whichever of the
/// two comes last sends it.
struct ClaimReplies {
  /// A request's reply: the peer it goes to and the sequence number it answers.
  struct Route: Hashable {
    var peer: [UInt8]
    var replyTo: UInt64
  }

  private var waiting: [Route: (writes: Int, reply: OutgoingReply?)] = [:]

  /// Whether no reply waits for a claim (the reply path's only cost when none does).
  var isEmpty: Bool { waiting.isEmpty }

  /// The reply to `route` waits for `writes` more claims to be written.
  mutating func wait(_ route: Route, writes: Int) {
    guard writes > 0 else { return }
    waiting[route, default: (0, nil)].writes += writes
  }

  /// The reply to `route` is ready: returns whether it waits for a claim (kept until then)
  /// rather than going out now.
  mutating func keep(_ route: Route, _ reply: OutgoingReply) -> Bool {
    guard waiting[route] != nil else { return false }
    waiting[route]?.reply = reply
    return true
  }

  /// A claim the reply to `route` waited for was written (or failed): returns the reply if it
  /// is ready and waits for nothing more.
  mutating func written(_ route: Route) -> OutgoingReply? {
    guard let entry = waiting[route] else { return nil }
    guard entry.writes <= 1 else {
      waiting[route]?.writes -= 1
      return nil
    }
    waiting[route] = nil
    return entry.reply
  }
}
