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

  /// SQLite's extended result code, when SQLite gave one.
  public var sqliteCode: Int32? {
    switch self {
    case .cannotOpen(_, let code, _), .writeFailed(_, let code, _): code
    case .newerFormat: nil
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
    }
  }
}
