import Foundation

/// The `sessions.json` file brokers before the SQLite store wrote: read once, imported, then
/// renamed `sessions.json.imported`.
///
/// Format: `{"version":1,"screens":{"<id>":{"focused":"<item>","selected":["<item>",…],
/// "text":{…},"remembered":{…},"rememberedOwn":{…}}}}`; `text`, `remembered` and
/// `rememberedOwn` may be absent (older files).
enum LegacySessionsFile {
  private struct File: Decodable {
    var version: Int
    var screens: [String: Screen]
  }

  private struct Screen: Decodable {
    var focused: String?
    var selected: [String]
    var text: [String: String]?
    var remembered: [String: String]?
    var rememberedOwn: [String: String]?
  }

  /// Why a legacy file could not be read.
  struct Unreadable: Error, CustomStringConvertible {
    var description: String
  }

  /// The records in the file at `path`; nil if there is no file.
  static func read(_ path: String) throws(Unreadable) -> [SessionRow]? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    let file: File
    do {
      file = try JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw Unreadable(description: "\(error)")
    }
    guard file.version == 1 else {
      throw Unreadable(description: "format version \(file.version) is not 1")
    }
    return file.screens.sorted { $0.key < $1.key }.map { id, screen in
      SessionRow(
        screenID: id, focused: screen.focused, selected: screen.selected,
        text: screen.text ?? [:], remembered: screen.remembered ?? [:],
        rememberedOwn: screen.rememberedOwn ?? [:])
    }
  }
}
