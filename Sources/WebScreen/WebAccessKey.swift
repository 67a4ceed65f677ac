import Foundation
import Logging
import TenFootSecurity

/// The key a page must present (`/ws?key=…`) to see the screen and act as its remote: the
/// web page is a remote that bypasses pairing, so it needs a secret of its own. 128 random
/// bits in hex; the screen prints its URL with the key, and keeps the key in its state
/// directory so a kiosk's bookmark survives restarts.
public struct WebAccessKey: Sendable, Equatable {
  /// The key in lowercase hex.
  public let hex: String

  /// A key from its hex text (surrounding whitespace ignored), or nil if it is not 32 hex
  /// digits.
  public init?(hex text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    guard trimmed.utf8.count == 32, trimmed.allSatisfy(\.isHexDigit) else { return nil }
    hex = trimmed
  }

  private init(bytes: [UInt8]) {
    hex = Hex.encode(bytes)
  }

  /// A fresh random key (libsodium's `randombytes_buf`, as for pairing nonces).
  public static func random() -> WebAccessKey {
    WebAccessKey(bytes: PairingProof.randomBytes(16))
  }

  /// Whether `candidate` is this key, compared in constant time.
  public func matches(_ candidate: String) -> Bool {
    PairingProof.equalInConstantTime(Array(hex.utf8), Array(candidate.lowercased().utf8))
  }
}

extension WebAccessKey {
  /// The key kept at `path` (mode 0600), created on first use so a kiosk's bookmark keeps
  /// working across restarts; a key for this run only (and a log line) when `path` is nil or
  /// cannot be written.
  public static func kept(at path: String?, logger: Logger) -> WebAccessKey {
    guard let path else {
      logger.notice("no state directory: the web page key lasts for this run only")
      return .random()
    }
    if let bytes = FileManager.default.contents(atPath: path),
      let key = WebAccessKey(hex: String(decoding: bytes, as: UTF8.self))
    {
      return key
    }
    let key = WebAccessKey.random()
    do {
      try AtomicFile.write(Array((key.hex + "\n").utf8), to: path, mode: 0o600)
    } catch {
      logger.notice(
        "could not keep the web page key: it lasts for this run only",
        metadata: ["path": "\(path)", "error": "\(error)"])
    }
    return key
  }
}
