import BrokerDomain
import Foundation
import TenFootSecurity

/// The pairing guard's file in the data directory (`pairing.json`, mode 0600): the wrong-PIN
/// counts survive a restart, and `tenfoot-broker pairing open` writes an open guard that the
/// running broker notices (it looks at the file's inode, size and time before each pairing
/// request). Failures forgiven while the broker was down are forgiven on load, by wall time.
public final class PairingGuardFile {
  struct Contents: Codable {
    var version = 1
    var savedAt: Double
    var guardState: PairingGuard
  }

  /// The file.
  public let path: String
  private var stamp: [Int64] = []

  /// The guard file `pairing.json` in `directory`.
  public init(directory: String) {
    path = directory + "/pairing.json"
  }

  /// The guard saved in the file, with the failures that decayed since it was saved forgiven;
  /// nil if the file did not change since the last load or save (or does not exist).
  public func loadIfChanged(now: Date = Date()) throws(StoreError) -> PairingGuard? {
    let current = Self.stamp(path)
    guard current != stamp else { return nil }
    stamp = current
    guard let bytes = try AtomicFile.read(path) else { return nil }
    let contents: Contents
    do {
      contents = try JSONDecoder().decode(Contents.self, from: Data(bytes))
    } catch {
      throw StoreError.unreadable(path, "\(error)")
    }
    guard contents.version == 1 else { throw StoreError.unsupportedVersion(path, contents.version) }
    var state = contents.guardState
    let elapsed = now.timeIntervalSince1970 - contents.savedAt
    state.forgive(Int(max(0, elapsed) / (PairingGuard.decay / .seconds(1))))
    return state
  }

  /// Writes `state` atomically.
  public func save(_ state: PairingGuard, now: Date = Date()) throws(StoreError) {
    let contents = Contents(savedAt: now.timeIntervalSince1970, guardState: state)
    let bytes: [UInt8]
    do {
      bytes = Array(try JSONEncoder().encode(contents))
    } catch {
      throw StoreError.unreadable(path, "\(error)")
    }
    try AtomicFile.write(bytes, to: path, mode: 0o600)
    stamp = Self.stamp(path)
  }

  private static func stamp(_ path: String) -> [Int64] { FileStamp.of(path) }
}
