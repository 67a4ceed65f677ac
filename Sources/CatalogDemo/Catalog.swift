import Foundation
import TenFootKit

/// What the catalog app shows: rows of posters. Loaded from JSON (`--catalog FILE`):
/// `{"rows": [{"title": "Up Next", "posters": [{"title": "Night Train"},
/// {"title": "Locked", "comingSoon": true}]}]}`; ids are derived (`upnext-0`, …) unless a
/// poster names its own `id`.
public struct Catalog: Sendable, Equatable, Decodable {
  /// One row of posters.
  public struct Row: Sendable, Equatable, Decodable {
    /// The row's heading.
    public var title: String
    /// Its posters, leading to trailing.
    public var posters: [Poster]
  }

  /// One poster.
  public struct Poster: Sendable, Equatable, Decodable {
    /// Its id, if the catalog names one.
    public var id: String?
    /// Its title.
    public var title: String
    /// Announced but not available yet: shown dimmed, never focusable.
    public var comingSoon: Bool?
  }

  /// The rows, top to bottom.
  public var rows: [Row]

  /// Loads and checks a catalog file.
  public static func load(path: String) throws -> Catalog {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CatalogError.unreadable(path: path)
    }
    guard String(validating: data, as: UTF8.self) != nil else {
      throw CatalogError.notUTF8(path: path)
    }
    let catalog: Catalog
    do {
      catalog = try JSONDecoder().decode(Catalog.self, from: data)
    } catch {
      throw CatalogError.invalid(path: path, cause: error)
    }
    guard !catalog.rows.isEmpty, catalog.rows.allSatisfy({ !$0.posters.isEmpty }) else {
      throw CatalogError.empty(path: path)
    }
    if let problem = catalog.textProblem() {
      throw CatalogError.text(path: path, problem: problem)
    }
    return catalog
  }

  /// The first title or id that breaks ``TextRules``, with its path (`rows[1].posters[2].id`).
  func textProblem() -> String? {
    for (row, entry) in rows.enumerated() {
      if let problem = TextRules.textProblem(entry.title) {
        return "rows[\(row)].title: \(problem)"
      }
      for (column, poster) in entry.posters.enumerated() {
        let path = "rows[\(row)].posters[\(column)]"
        if let problem = TextRules.textProblem(poster.title) { return "\(path).title: \(problem)" }
        if let id = poster.id, let problem = TextRules.idProblem(id) {
          return "\(path).id: \(problem)"
        }
      }
    }
    return nil
  }

  /// The built-in catalog: four rows of twelve posters, a few coming soon.
  public static let builtIn: Catalog = {
    func row(_ title: String, _ names: [String]) -> Row {
      Row(
        title: title,
        posters: names.map { name in
          name.hasPrefix("~")
            ? Poster(title: String(name.dropFirst()), comingSoon: true) : Poster(title: name)
        })
    }
    return Catalog(rows: [
      row(
        "Up Next",
        [
          "The Long Field", "Night Train", "Blue Harbor", "~Coming Soon", "Paper Moons",
          "Glass City", "North Star", "Salt Road", "Winter Light", "Open Water", "Echo Park",
          "Last Summer",
        ]),
      row(
        "Trending",
        [
          "Orbit", "~Locked", "Red Canyon", "Quiet Hours", "Signal", "Low Tide", "Static",
          "Parallel", "Deep Field", "Afterglow", "Undertow", "Night Shift",
        ]),
      row(
        "Classics",
        [
          "Old Roads", "Silver Screen", "~Restoring", "Golden Hour", "Last Reel",
          "First Light", "Picture Show", "Long Goodbye", "Matinee", "Newsreel", "Encore",
          "The Usher",
        ]),
      row(
        "Kids",
        [
          "Tiny Robots", "Cloud Castle", "Sea Friends", "~Soon", "Moon Bus", "Dino Day",
          "Paper Planes", "Sock Puppets", "Star Camp", "Bubble Town", "Snow Day", "Kite Hill",
        ]),
    ])
  }()

  /// The id of the poster at `column` of row `row`.
  public func posterID(row: Int, column: Int) -> String {
    if let id = rows[row].posters[column].id { return id }
    // ASCII only: ids follow TextRules, whatever script the row's title is in.
    let slug = rows[row].title.lowercased().filter {
      $0.isASCII && ($0.isLetter || $0.isNumber)
    }
    return "\(slug.isEmpty ? "row\(row)" : slug)-\(column)"
  }
}

/// Why a catalog file cannot be shown; `description` says what is wrong.
public enum CatalogError: Error, CustomStringConvertible {
  /// The file cannot be read.
  case unreadable(path: String)
  /// The file is not valid UTF-8.
  case notUTF8(path: String)
  /// The file is not a catalog's JSON (the decoder's error).
  case invalid(path: String, cause: any Error)
  /// The catalog has no row, or a row without a poster.
  case empty(path: String)
  /// A text in the catalog breaks the text rules (`problem` names the field and the rule).
  case text(path: String, problem: String)

  /// What is wrong.
  public var description: String {
    switch self {
    case .unreadable(let path): "\(path): cannot read the catalog file"
    case .notUTF8(let path): "\(path): not a catalog: the file is not valid UTF-8"
    case .invalid(let path, let cause): "\(path): not a catalog: \(cause)"
    case .empty(let path): "\(path): a catalog needs at least one row, and every row a poster"
    case .text(let path, let problem): "\(path): \(problem)"
    }
  }
}
