import Foundation
import GRDB
import Logging

/// The schema, its migrations and the row mapping.
extension SessionStore {
  /// The versioned migrations. Never edit a registered one: add the next.
  static func migrator() -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      // One row per screen session; the lists and maps are JSON text. WITHOUT ROWID: the
      // screen id is the key, so an update touches one b-tree page.
      try db.create(table: "screenSession", options: [.withoutRowID]) { table in
        table.primaryKey("screenID", .text)
        table.column("focused", .text)
        table.column("selected", .text).notNull()
        table.column("text", .text).notNull()
        table.column("remembered", .text).notNull()
        table.column("rememberedOwn", .text).notNull()
      }
    }
    // Imported the `sessions.json` of one day's builds (2026-11-23, never released); empty
    // now, registered still: every database records it, and an unknown applied migration
    // would read as a newer format.
    migrator.registerMigration("v2-import-sessions-json") { _ in }
    return migrator
  }

  static let upsertSQL = """
    INSERT OR REPLACE INTO screenSession
      (screenID, focused, selected, text, remembered, rememberedOwn)
    VALUES (?, ?, ?, ?, ?, ?)
    """

  static func arguments(_ record: SessionRow) -> StatementArguments {
    [
      record.screenID, record.focused, CompactJSON.array(record.selected),
      CompactJSON.object(record.text), CompactJSON.object(record.remembered),
      CompactJSON.object(record.rememberedOwn),
    ]
  }

  static func record(_ row: Row) throws -> SessionRow {
    guard let screenID: String = row["screenID"] else {
      throw RecordDecodingError.missingScreenID
    }
    return SessionRow(
      screenID: screenID, focused: row["focused"],
      selected: try decode(row["selected"], screenID, "selected"),
      text: try decode(row["text"], screenID, "text"),
      remembered: try decode(row["remembered"], screenID, "remembered"),
      rememberedOwn: try decode(row["rememberedOwn"], screenID, "rememberedOwn"))
  }

  private static func decode<Value: Decodable>(_ text: String?, _ screen: String, _ column: String)
    throws -> Value
  {
    guard let text, let value = try? JSONDecoder().decode(Value.self, from: Data(text.utf8)) else {
      throw RecordDecodingError.invalidColumn(screen: screen, column: column)
    }
    return value
  }

}

/// A row the store wrote cannot be read back: the database is damaged.
enum RecordDecodingError: Error, CustomStringConvertible {
  /// A row has no screen id.
  case missingScreenID
  /// A screen's list or map column does not hold its JSON.
  case invalidColumn(screen: String, column: String)

  var description: String {
    switch self {
    case .missingScreenID: "a row without a screen id"
    case .invalidColumn(let screen, let column): "screen \(screen): column \(column) is not valid"
    }
  }
}
