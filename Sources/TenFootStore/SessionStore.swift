import Foundation
import GRDB
import Logging

/// The broker's durable sessions: one row per screen session in a SQLite database
/// (`sessions.sqlite` in the data directory). GRDB opens it, migrates it and reads it back;
/// commits go through `SessionWriter`, a connection of its own on SQLite's C API (the commit is
/// on every press's acknowledgement, see there).
///
/// - **Durability.** WAL journal with `synchronous = FULL` and `locking_mode = EXCLUSIVE`: every commit appends its pages to
///   the WAL and fsyncs it once before `commit` returns, so a commit that returned survives
///   `kill -9` and power loss alike. (`NORMAL` in WAL mode syncs the WAL only at checkpoints:
///   a returned commit survives a process crash but not a power cut, so it is not enough for
///   an acknowledgement.) Every few hundred commits SQLite checkpoints the WAL into the
///   database in the committing call, which costs a second fsync then.
/// - **Group commit.** `commit(_:)` writes any number of records in one transaction, hence one
///   fsync: the broker hands it everything one loop iteration changed. One record is written
///   by a single statement in SQLite's own transaction, several between `BEGIN IMMEDIATE` and
///   `COMMIT`.
/// - **Schema.** Versioned GRDB migrations; the first one (`v1`) creates the table. The second
///   (`v2-import-sessions-json`) imported a `sessions.json` from the builds of one day of
///   development (2026-11-23), which no release wrote: it is now empty, and stays registered
///   because every database records it as applied.
/// - **Damage.** A file SQLite calls corrupt or not a database, or a row that does not decode,
///   is logged (what and where), set aside (`sessions.sqlite.corrupt-<time>`, with its `-wal`
///   and `-shm`) and the store starts empty. Other failures to open (permissions, a missing
///   directory, a full disk) are thrown: the broker cannot promise durability then.
///
/// Not thread-safe: one owner (the broker's loop thread) calls it.
public final class SessionStore {
  /// The database file.
  public let path: String
  private let logger: Logger
  /// The connection that commits (GRDB's, which opened and migrated the file, is closed).
  private let writer: SessionWriter
  /// The durable records, by screen id: what the database holds after the last commit.
  public private(set) var records: [String: SessionRow]
  /// Successful commits since opening (each one transaction, one fsync).
  public private(set) var commits = 0

  /// The database file name inside the data directory.
  public static let fileName = "sessions.sqlite"
  /// Opens (or creates) the store in `directory`.
  public init(directory: String, logger: Logger) throws(SessionStoreError) {
    path = directory + "/" + Self.fileName
    self.logger = logger
    let database: DatabaseQueue
    do {
      (database, records) = try Self.open(path, logger: logger)
    } catch let error as DatabaseError
      where Self.damaged.contains(error.resultCode)
    {
      (database, records) = try Self.reopenEmpty(path, cause: "\(error)", logger)
    } catch let error as RecordDecodingError {
      (database, records) = try Self.reopenEmpty(path, cause: "\(error)", logger)
    } catch let error as SessionStoreError {
      throw error
    } catch {
      throw Self.cannotOpen(path, error)
    }
    // GRDB's connection has done its part (migrations, the rows); commits go through a
    // connection of their own, and the exclusive lock must be free for it.
    do {
      try database.close()
    } catch {
      throw Self.cannotOpen(path, error)
    }
    writer = try SessionWriter(path: path)
    logger.info(
      "session store opened",
      metadata: ["store.path": "\(path)", "store.screens": "\(records.count)"])
  }

  /// The durable record of `screen`, if any.
  public func record(for screen: String) -> SessionRow? { records[screen] }

  /// Writes `changes` in one transaction (one fsync) and returns once they are durable. On
  /// failure nothing of them is written and `records` is unchanged. Rows equal to the durable
  /// record are skipped (a batch that changed nothing costs no transaction).
  public func commit(_ changes: some Collection<SessionRow>) throws(SessionStoreError) {
    let changed = changes.filter { records[$0.screenID] != $0 }
    guard !changed.isEmpty else { return }
    try writer.write(changed)
    for record in changed { records[record.screenID] = record }
    commits += 1
  }

  /// The journal mode, `synchronous` level and locking mode SQLite reports for the connection
  /// that commits (`("wal", 2, "exclusive")`: WAL, FULL, exclusive); nil if it cannot be read.
  public func journal() -> (mode: String, synchronous: Int, locking: String)? {
    guard let mode = try? writer.text("PRAGMA journal_mode"),
      let synchronous = (try? writer.text("PRAGMA synchronous")).flatMap({ Int($0) }),
      let locking = try? writer.text("PRAGMA locking_mode")
    else { return nil }
    return (mode, synchronous, locking)
  }

  /// Closes the database (also done when the store is released).
  public func close() { writer.close() }

  // MARK: - Opening

  /// Result codes that mean the file itself is damaged (set it aside), not the system.
  private static let damaged: [ResultCode] = [.SQLITE_CORRUPT, .SQLITE_NOTADB]

  private static func open(_ path: String, logger: Logger) throws -> (
    DatabaseQueue, [String: SessionRow]
  ) {
    var configuration = Configuration()
    configuration.label = "tenfoot.sessions"
    // Not `configuration.journalMode = .wal`: GRDB then sets `synchronous = NORMAL` after
    // this closure runs, and a WAL commit would no longer be fsync'd before it returns.
    configuration.prepareDatabase { db in
      // Before the first WAL access: the wal-index lives in this process's memory, not in a
      // shared `-shm` mapping, and the file locks are taken once and kept, so a commit makes
      // no lock or unlock calls (SQLite's own cost per one-row commit falls to about a third;
      // docs/performance.md). The broker is the database's only user; a second process cannot
      // open it while the broker runs. A killed broker's locks go with it.
      try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
      let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
      guard mode == "wal" else {
        throw DatabaseError(message: "cannot use the WAL journal (journal_mode is \(mode ?? "?"))")
      }
      try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    let database = try DatabaseQueue(path: path, configuration: configuration)
    do {
      let migrator = Self.migrator()
      let superseded = try database.read { db in
        try migrator.hasBeenSuperseded(db)
          ? Array(try migrator.appliedIdentifiers(db).subtracting(migrator.migrations)).sorted()
          : []
      }
      guard superseded.isEmpty else {
        throw SessionStoreError.newerFormat(path: path, migrations: superseded)
      }
      try migrator.migrate(database)
      let rows = try database.read { db in try Row.fetchAll(db, sql: "SELECT * FROM screenSession")
      }
      var records: [String: SessionRow] = [:]
      for row in rows {
        let record = try Self.record(row)
        records[record.screenID] = record
      }
      return (database, records)
    } catch {
      try? database.close()
      throw error
    }
  }

  /// Sets a damaged database aside and opens a new, empty one in its place.
  private static func reopenEmpty(
    _ path: String, cause: String, _ logger: Logger
  ) throws(SessionStoreError) -> (DatabaseQueue, [String: SessionRow]) {
    let aside = "\(path).corrupt-\(Int(Date().timeIntervalSince1970))"
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
      rename(path + suffix, aside + suffix)
    }
    logger.error(
      "session store unreadable: set aside, starting empty",
      metadata: ["store.path": "\(path)", "store.aside": "\(aside)", "error": "\(cause)"])
    do {
      return try open(path, logger: logger)
    } catch {
      throw Self.cannotOpen(path, error)
    }
  }

  /// `cannotOpen` for `path`, with SQLite's extended code and message when GRDB gives them.
  private static func cannotOpen(_ path: String, _ error: any Error) -> SessionStoreError {
    guard let error = error as? DatabaseError else {
      return .cannotOpen(path: path, code: -1, message: "\(error)")
    }
    return .cannotOpen(
      path: path, code: error.extendedResultCode.rawValue, message: error.message ?? "\(error)")
  }
}
