import Logging
import Synchronization

/// A log handler that keeps every message in memory, for tests that read what was logged.
public struct RecordingLogHandler: LogHandler {
  /// One logged message with its metadata rendered as `key=value` text.
  public struct Entry: Sendable {
    public let level: Logger.Level
    public let message: String
    public let metadata: String
  }

  /// The messages so far, shared by every copy of the handler.
  public final class Box: Sendable {
    let entries = Mutex<[Entry]>([])
    /// Every message logged so far, oldest first.
    public var all: [Entry] { entries.withLock { $0 } }
  }

  let box: Box
  public var logLevel: Logger.Level = .trace
  public var metadata: Logger.Metadata = [:]

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    let merged = metadata.merging(event.metadata ?? [:]) { $1 }
    let text = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      .joined(separator: " ")
    box.entries.withLock {
      $0.append(Entry(level: event.level, message: "\(event.message)", metadata: text))
    }
  }

  /// A logger labelled `label` writing into a fresh box, and the box.
  public static func logger(label: String = "test") -> (Logger, Box) {
    let box = Box()
    return (Logger(label: label) { _ in RecordingLogHandler(box: box) }, box)
  }
}
