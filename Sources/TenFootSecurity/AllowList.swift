import Foundation
import ZeroMQ

/// The peers a broker lets in over CURVE: each paired remote's (or copied screen's) public key,
/// with a short id for `tenfoot-broker peers list|revoke`. Persisted as versioned JSON in the
/// broker's data directory, written atomically.
public struct AllowList: Sendable, Equatable, Codable {
  /// One allowed peer.
  public struct Entry: Sendable, Equatable, Codable {
    /// Short stable id: the first 4 bytes of the public key in hex.
    public var id: String
    /// The peer's CURVE public key (Z85).
    public var publicKey: String
    /// A name for people ("alice-phone").
    public var name: String
    /// What the peer is.
    public var role: Role
    /// When it was added, seconds since 1970.
    public var added: Double

    /// Creates an entry for `publicKey`.
    public init(publicKey: String, name: String, role: Role, added: Double) {
      self.id = AllowList.id(of: publicKey)
      self.publicKey = publicKey
      self.name = name
      self.role = role
      self.added = added
    }
  }

  /// What an allowed peer is; stored as its name ("remote", "screen").
  public enum Role: String, Sendable, Equatable, Codable, CaseIterable {
    /// A remote, paired with a PIN or added by key.
    case remote
    /// A screen, added by key (`tenfoot-screen --print-key`).
    case screen
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

  /// The entry for a public key, if allowed.
  public func entry(publicKey: String) -> Entry? {
    entries.first { $0.publicKey == publicKey }
  }

  /// The entry with a short id, if any.
  public func entry(id: String) -> Entry? { entries.first { $0.id == id } }

  /// Adds (or renames) a peer.
  public mutating func allow(_ entry: Entry) {
    entries.removeAll { $0.publicKey == entry.publicKey }
    entries.append(entry)
  }

  /// Removes the peer with id (or public key) `id`; returns what was removed.
  @discardableResult
  public mutating func revoke(_ id: String) -> Entry? {
    guard let index = entries.firstIndex(where: { $0.id == id || $0.publicKey == id }) else {
      return nil
    }
    return entries.remove(at: index)
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
