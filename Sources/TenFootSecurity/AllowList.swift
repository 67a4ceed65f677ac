import Foundation
import ZeroMQ

/// The peers a broker lets in over CURVE: each paired remote's (or copied screen's) public key,
/// its role and the screens it is bound to, with a short id for `tenfoot-broker remotes
/// list|revoke`. Persisted as versioned JSON in the broker's data directory, written atomically.
///
/// A peer's identity is its whole key: the broker looks entries up by key, and a short id is
/// only a name for people, unique among the entries when it is given (a key whose first 4 bytes
/// match another entry's gets a longer id).
public struct AllowList: Sendable, Equatable, Codable {
  /// One allowed peer.
  public struct Entry: Sendable, Equatable, Codable {
    /// Short stable id: the public key in hex, cut to the shortest prefix of at least 4 bytes
    /// no other entry's key shared when it was added.
    public var id: String
    /// The peer's CURVE public key (Z85).
    public var publicKey: String
    /// A name for people ("alice-phone").
    public var name: String
    /// What the peer is.
    public var role: Role
    /// When it was added, seconds since 1970.
    public var added: Double
    /// The screen ids the peer is bound to. A screen key: the ids it owns (given by the
    /// operator, or claimed by registering an id no other key owns). A remote: the screens it
    /// may use (nil: all). An app: the screens it may patch and focus (nil: none).
    public var screens: [String]?

    /// Creates an entry for `publicKey`.
    public init(
      publicKey: String, name: String, role: Role, added: Double, screens: [String]? = nil
    ) {
      self.id = AllowList.id(of: publicKey)
      self.publicKey = publicKey
      self.name = name
      self.role = role
      self.added = added
      self.screens = screens
    }

    /// The public key's 32 bytes in hex: the identity the broker knows the peer by.
    public var keyHex: String { AllowList.keyHex(of: publicKey) }
  }

  /// What an allowed peer is; stored as its name ("remote", "screen", "app").
  public enum Role: String, Sendable, Equatable, Codable, CaseIterable {
    /// A remote, paired with a PIN or added by key: input, focus and debug requests.
    case remote
    /// A screen, added by key (`tenfoot-screen --print-key`): registers and keeps the screens
    /// it owns.
    case screen
    /// An app process: patches and focuses the screens it is bound to.
    case app
  }

  /// What `revoke` found.
  public enum Match: Sendable, Equatable {
    /// One entry: removed.
    case one(Entry)
    /// No entry has this id, key or key prefix.
    case none
    /// Several entries' keys start with this prefix (their ids): nothing removed.
    case ambiguous([String])

    /// The entry, if exactly one matched.
    public var entry: Entry? {
      if case .one(let entry) = self { entry } else { nil }
    }
  }

  /// The file format version.
  public var version = 1
  /// The allowed peers, in the order they were added.
  public var entries: [Entry] = []

  /// An empty list.
  public init() {}

  /// The short id of a public key (first 4 bytes in hex), or the key itself if it is not Z85.
  public static func id(of publicKey: String) -> String {
    guard let bytes = Z85.decode(publicKey), bytes.count >= 4 else { return publicKey }
    return Hex.encode(bytes.prefix(4))
  }

  /// The whole key in hex (the key itself if it is not Z85).
  public static func keyHex(of publicKey: String) -> String {
    guard let bytes = Z85.decode(publicKey) else { return publicKey }
    return Hex.encode(bytes)
  }

  /// The entry for a public key (Z85), if allowed.
  public func entry(publicKey: String) -> Entry? {
    entries.first { $0.publicKey == publicKey }
  }

  /// The entry for a key given as its 64 hex digits, if allowed.
  public func entry(keyHex: String) -> Entry? {
    entries.first { $0.keyHex == keyHex }
  }

  /// The entry with a short id, if any.
  public func entry(id: String) -> Entry? { entries.first { $0.id == id } }

  /// Adds (or renames) a peer, keeping the screens it was bound to unless `entry` names some.
  /// Its id is made unique: lengthened, 2 hex digits at a time, until no other entry's key
  /// starts with it and no other entry has it.
  public mutating func allow(_ entry: Entry) {
    var entry = entry
    if let old = entries.first(where: { $0.publicKey == entry.publicKey }) {
      if entry.screens == nil { entry.screens = old.screens }
    }
    entries.removeAll { $0.publicKey == entry.publicKey }
    let hex = entry.keyHex
    var length = min(8, hex.count)
    while length < hex.count {
      let candidate = String(hex.prefix(length))
      let taken = entries.contains { $0.id == candidate || $0.keyHex.hasPrefix(candidate) }
      if !taken { break }
      length += 2
    }
    entry.id = String(hex.prefix(length))
    entries.append(entry)
  }

  /// Removes the peer named by `text`: its id, its whole key (Z85 or hex), or a hex prefix
  /// of its key that no other entry's key shares. An ambiguous prefix removes nothing.
  @discardableResult
  public mutating func revoke(_ text: String) -> Match {
    switch find(text) {
    case .one(let entry):
      entries.removeAll { $0.publicKey == entry.publicKey }
      return .one(entry)
    case let other: return other
    }
  }

  /// The entry `text` names (as `revoke` reads it), without changing anything.
  public func find(_ text: String) -> Match {
    if let exact = entries.first(where: { $0.publicKey == text }) { return .one(exact) }
    let named = entries.filter { $0.id == text }
    if named.count == 1 { return .one(named[0]) }
    // Entries added before ids were made unique may share one: the key tells them apart.
    if named.count > 1 { return .ambiguous(named.map(\.keyHex)) }
    let prefix = text.lowercased()
    guard !prefix.isEmpty, prefix.allSatisfy(\.isHexDigit) else { return .none }
    let matches = entries.filter { $0.keyHex.hasPrefix(prefix) }
    switch matches.count {
    case 0: return .none
    case 1: return .one(matches[0])
    default: return .ambiguous(matches.map(\.id))
    }
  }

  /// Binds screen `id` to the screen key `keyHex` (it registered an id no key owned).
  public mutating func bind(screen id: String, toKeyHex keyHex: String) {
    guard let index = entries.firstIndex(where: { $0.keyHex == keyHex }) else { return }
    var screens = entries[index].screens ?? []
    if !screens.contains(id) { screens.append(id) }
    entries[index].screens = screens
  }

  /// Screen id → the hex key of the screen key that owns it.
  public var screenOwners: [String: String] {
    var owners: [String: String] = [:]
    for entry in entries where entry.role == .screen {
      for screen in entry.screens ?? [] where owners[screen] == nil {
        owners[screen] = entry.keyHex
      }
    }
    return owners
  }

  /// Loads the list at `path` (empty if the file does not exist).
  public static func load(_ path: String) throws(StoreError) -> AllowList {
    guard let bytes = try AtomicFile.read(path) else { return AllowList() }
    let list: AllowList
    do {
      list = try JSONDecoder().decode(AllowList.self, from: Data(bytes))
    } catch {
      throw StoreError.unreadable(path, "\(error)")
    }
    guard list.version == 1 else { throw StoreError.unsupportedVersion(path, list.version) }
    return list
  }

  /// Writes the list to `path` atomically (mode 0600).
  public func save(_ path: String) throws(StoreError) {
    try AtomicFile.write(try KeyFile.encode(self), to: path, mode: 0o600)
  }
}
