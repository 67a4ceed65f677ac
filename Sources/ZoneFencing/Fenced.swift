/// A write refused because the zone's term is newer than the writer's: another broker of the
/// zone took over, nothing of the write was applied, and the writer must step down.
///
/// The session store, the allow-list and the lease renewal all report it with this one
/// value, so the zone loop has one reason to step down for all three.
public struct Fenced: Error, Sendable, Equatable, CustomStringConvertible {
  /// What the refused write was.
  public enum Write: String, Sendable, Equatable {
    /// A commit of sessions and press ids.
    case sessions
    /// An allow-list change (a pairing, a revoke).
    case allowList = "allow-list"
    /// The active broker's lease renewal.
    case lease
  }

  /// What the refused write was.
  public let write: Write
  /// The store and zone, for logs (no password).
  public let store: String
  /// The term the write was made under.
  public let term: Int64
  /// The zone's term now, when the store said (nil: not asked, or no answer).
  public let current: Int64?

  /// A refused `write` of `term` on `store`, whose term is now `current` (nil: unknown).
  public init(_ write: Write, store: String, term: Int64, current: Int64? = nil) {
    self.write = write
    self.store = store
    self.term = term
    self.current = current
  }

  /// What was refused and why.
  public var description: String {
    "\(store) refused a write of term \(term) (\(write.rawValue)): the zone's term is now "
      + (current.map { "\($0)" } ?? "newer") + " (another broker took over)"
  }
}
