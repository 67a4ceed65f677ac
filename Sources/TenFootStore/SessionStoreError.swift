import ZoneFencing

/// Why the session store could not be opened or written, with the cause kept: the database
/// path, SQLite's extended result code and its message (or the file and errno for the legacy
/// import).
public enum SessionStoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The database could not be opened or prepared (missing directory, permissions, I/O).
  case cannotOpen(path: String, code: Int32, message: String)
  /// The database was written by a newer TenFoot (migrations this one does not know).
  case newerFormat(path: String, migrations: [String])
  /// A commit failed (disk full, I/O error, read-only file): nothing of it was written.
  case writeFailed(path: String, code: Int32, message: String)
  /// A PostgreSQL store could not be reached or answered an error (SQLSTATE in `code`, empty
  /// when the connection itself failed or timed out): nothing of the change was written.
  case unavailable(store: String, code: String, message: String)
  /// A PostgreSQL commit was sent but its answer never came (the connection broke or the
  /// query timed out): it may or may not have been applied. The broker must load what the
  /// store holds before it serves again (a zone's broker steps down and takes the zone again).
  case outcomeUnknown(store: String, message: String)
  /// A newer broker of the zone took over (the store's term is newer than this broker's): the
  /// write was refused and this broker must step down.
  case fenced(Fenced)

  /// SQLite's extended result code, when SQLite gave one.
  public var sqliteCode: Int32? {
    switch self {
    case .cannotOpen(_, let code, _), .writeFailed(_, let code, _): code
    case .newerFormat, .unavailable, .outcomeUnknown, .fenced: nil
    }
  }

  /// What is wrong and where.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let code, let message):
      "cannot open the session store \(path): \(message) (SQLite code \(code))"
    case .newerFormat(let path, let migrations):
      "the session store \(path) was written by a newer TenFoot (unknown migrations: "
        + "\(migrations.joined(separator: ", ")))"
    case .writeFailed(let path, let code, let message):
      "cannot write the session store \(path): \(message) (SQLite code \(code))"
    case .unavailable(let store, let code, let message):
      "the session store \(store) is unavailable: \(message)"
        + (code.isEmpty ? "" : " (SQLSTATE \(code))")
    case .outcomeUnknown(let store, let message):
      "the session store \(store) did not answer a commit (\(message)): it may have been applied"
    case .fenced(let fenced): "\(fenced)"
    }
  }
}
