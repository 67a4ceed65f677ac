import Foundation

/// Text snapshots kept next to the tests (`__Snapshots__/<name>.txt` beside the test file).
/// `RECORD_SNAPSHOTS=1` writes the current text instead of comparing.
public enum TextSnapshot {
  /// The stored snapshot's text, or the reason it cannot be compared: nil when `text` matches
  /// (or was recorded), else a message with both texts for the failure.
  public static func mismatch(_ text: String, named name: String, testFile: String = #filePath)
    -> String?
  {
    let folder = URL(fileURLWithPath: testFile).deletingLastPathComponent()
      .appendingPathComponent("__Snapshots__")
    let file = folder.appendingPathComponent(name + ".txt")
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      do {
        try Data(text.utf8).write(to: file)
      } catch {
        return "could not record \(file.path): \(error)"
      }
      return nil
    }
    guard let data = FileManager.default.contents(atPath: file.path) else {
      return "no snapshot at \(file.path); run with RECORD_SNAPSHOTS=1 to record:\n\(text)"
    }
    let stored = String(decoding: data, as: UTF8.self)
    guard stored != text else { return nil }
    return
      "snapshot \(name) differs (RECORD_SNAPSHOTS=1 re-records)\n--- stored\n\(stored)\n--- now\n\(text)"
  }
}

/// The repository's root folder, found from a test file's path (`Tests/<Target>/<file>`).
public func repositoryRoot(testFile: String = #filePath) -> String {
  URL(fileURLWithPath: testFile).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
}
