import Foundation

/// The broker public keys a remote or screen has pinned, per control endpoint (trust on first
/// use, like ssh's known_hosts). A broker that later presents a different key is refused.
///
/// Format (versioned JSON): `{"version":1,"brokers":{"tcp://10.0.0.1:7700":"<Z85>"}}`.
public struct KnownBrokers: Sendable, Equatable, Codable {
  /// The file format version.
  public var version = 1
  /// Pinned keys by control endpoint.
  public var brokers: [String: String] = [:]

  /// No pinned brokers.
  public init() {}

  /// Loads the pins at `path` (none if the file does not exist).
  public static func load(_ path: String) throws(StoreError) -> KnownBrokers {
    guard let bytes = try AtomicFile.read(path) else { return KnownBrokers() }
    let known: KnownBrokers
    do {
      known = try JSONDecoder().decode(KnownBrokers.self, from: Data(bytes))
    } catch {
      throw StoreError.unreadable(path, "\(error)")
    }
    guard known.version == 1 else { throw StoreError.unsupportedVersion(path, known.version) }
    return known
  }

  /// Writes the pins to `path` atomically.
  public func save(_ path: String) throws(StoreError) {
    try AtomicFile.write(try KeyFile.encode(self), to: path, mode: 0o600)
  }
}
