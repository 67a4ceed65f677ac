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

  /// A key from its hex text, or nil if it is not 32 hex digits.
  public init?(hex text: some StringProtocol) {
    let trimmed = text.trimmingWhitespace()
    guard trimmed.utf8.count == 32, trimmed.utf8.allSatisfy(\.isHexDigit) else { return nil }
    hex = trimmed.lowercased()
  }

  /// A fresh random key (the system's cryptographic generator).
  public static func random() -> WebAccessKey {
    var generator = SystemRandomNumberGenerator()
    let words = [generator.next(), generator.next()] as [UInt64]
    let text = words.map { word in
      let digits = String(word, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }.joined()
    // Thirty-two hex digits by construction.
    return WebAccessKey(hex: text) ?? WebAccessKey(unchecked: text)
  }

  private init(unchecked hex: String) { self.hex = hex }

  /// Whether `candidate` is this key, comparing every byte (no early exit on a mismatch).
  public func matches(_ candidate: some StringProtocol) -> Bool {
    let a = Array(hex.utf8)
    let b = Array(candidate.lowercased().utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
  }
}

extension UInt8 {
  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}

extension StringProtocol {
  fileprivate func trimmingWhitespace() -> String {
    String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
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
