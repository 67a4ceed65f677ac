import Logging
import Synchronization

/// A log handler that keeps every message in memory, for tests that read what was logged.
struct RecordingLogHandler: LogHandler {
  /// One logged message with its metadata rendered as `key=value` text.
  struct Entry: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: String
  }

  /// The messages so far, shared by every copy of the handler.
  final class Box: Sendable {
    let entries = Mutex<[Entry]>([])
    var all: [Entry] { entries.withLock { $0 } }
  }

  let box: Box
  var logLevel: Logger.Level = .trace
  var metadata: Logger.Metadata = [:]

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let merged = metadata.merging(event.metadata ?? [:]) { $1 }
    let text = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      .joined(separator: " ")
    box.entries.withLock {
      $0.append(Entry(level: event.level, message: "\(event.message)", metadata: text))
    }
  }

  /// A logger writing into a fresh box, and the box.
  static func logger() -> (Logger, Box) {
    let box = Box()
    return (Logger(label: "test.web") { _ in RecordingLogHandler(box: box) }, box)
  }
}
