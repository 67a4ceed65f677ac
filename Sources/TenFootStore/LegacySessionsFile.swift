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

  /// Why a legacy file could not be read, with its cause.
  enum Unreadable: Error, CustomStringConvertible {
    /// The file could not be read or is not the format's JSON.
    case undecodable(path: String, cause: any Error)
    /// The file names a format version other than 1.
    case version(path: String, Int)

    var description: String {
      switch self {
      case .undecodable(let path, let cause): "\(path): \(cause)"
      case .version(let path, let version): "\(path): format version \(version) is not 1"
      }
    }
  }

  /// The records in the file at `path`; nil if there is no file.
  static func read(_ path: String) throws(Unreadable) -> [SessionRow]? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    let file: File
    do {
      file = try JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw .undecodable(path: path, cause: error)
    }
    guard file.version == 1 else {
      throw .version(path: path, file.version)
    }
    return file.screens.sorted { $0.key < $1.key }.map { id, screen in
      SessionRow(
        screenID: id, focused: screen.focused, selected: screen.selected,
        text: screen.text ?? [:], remembered: screen.remembered ?? [:],
        rememberedOwn: screen.rememberedOwn ?? [:])
    }
  }
}
