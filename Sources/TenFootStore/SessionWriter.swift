import GRDBSQLite

/// The store's commits, on a SQLite connection of their own driven through SQLite's C API.
///
/// Written by hand rather than through GRDB because a commit sits on every press's
/// acknowledgement: in the running broker (cold caches between presses) GRDB's serial queue,
/// statement cache, argument boxing and transaction bookkeeping cost more than SQLite's own
/// work for the row (the durable benchmark's profile is in docs/performance.md). GRDB still opens the database, runs the migrations, loads the rows
/// and sets a damaged file aside; this connection is opened after GRDB's is closed.
///
/// - One changed row is written by the upsert alone, in SQLite's own (autocommit) transaction:
///   one statement, one WAL append, one fsync. Several rows are written between
///   `BEGIN IMMEDIATE` and `COMMIT`: still one fsync.
/// - The connection uses the settings the store promises: WAL, `synchronous = FULL`, exclusive
///   locking (checked when opening).
/// - Statements are prepared once (`SQLITE_PREPARE_PERSISTENT`); text is bound from the row's
///   UTF-8 bytes, no `String` per column.
///
/// Not thread-safe: one owner calls it.
final class SessionWriter {
  private let path: String
  private var connection: OpaquePointer?
  private var upsert: OpaquePointer?
  private var begin: OpaquePointer?
  private var commitTransaction: OpaquePointer?
  private var rollback: OpaquePointer?
  /// Reused for each bound column's JSON text.
  private var scratch: [UInt8] = []

  /// Opens `path` (an existing database GRDB migrated) for writing.
  init(path: String) throws(SessionStoreError) {
    self.path = path
    var handle: OpaquePointer?
    let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
    connection = handle
    guard opened == SQLITE_OK, handle != nil else {
      let error = failure(opened)
      close()
      throw .cannotOpen(path: path, code: error.code, message: error.message)
    }
    sqlite3_extended_result_codes(handle, 1)
    do throws(SessionStoreError) {
      // Exclusive locking before the first WAL access: the wal-index in this process's memory,
      // the file locks taken once (no lock calls per commit). See SessionStore.open.
      try execute("PRAGMA locking_mode = EXCLUSIVE")
      guard let mode = try text("PRAGMA journal_mode = WAL"), mode == "wal" else {
        throw SessionStoreError.cannotOpen(
          path: path, code: SQLITE_ERROR, message: "cannot use the WAL journal")
      }
      try execute("PRAGMA synchronous = FULL")
      upsert = try prepare(SessionStore.upsertSQL)
      begin = try prepare("BEGIN IMMEDIATE TRANSACTION")
      commitTransaction = try prepare("COMMIT TRANSACTION")
      rollback = try prepare("ROLLBACK TRANSACTION")
    } catch {
      close()
      throw error
    }
  }

  deinit { close() }

  /// Writes `rows` in one transaction (one fsync); on failure nothing of them is written.
  func write(_ rows: some Collection<SessionRow>) throws(SessionStoreError) {
    guard let connection else {
      throw .writeFailed(path: path, code: SQLITE_MISUSE, message: "the store is closed")
    }
    if rows.count == 1, let row = rows.first {
      // Autocommit: a failed statement rolls its own transaction back.
      return try write(row)
    }
    try step(begin)
    do throws(SessionStoreError) {
      for row in rows { try write(row) }
      try step(commitTransaction)
    } catch {
      // A failed COMMIT (disk full, I/O error) can leave the transaction open: nothing of it
      // may stay.
      if sqlite3_get_autocommit(connection) == 0 { try? step(rollback) }
      throw error
    }
  }

  /// The text SQLite answers for a one-value query (`PRAGMA journal_mode`), nil if none.
  func text(_ sql: String) throws(SessionStoreError) -> String? {
    let statement = try prepare(sql, persistent: false)
    defer { sqlite3_finalize(statement) }
    let code = sqlite3_step(statement)
    guard code == SQLITE_ROW else {
      if code == SQLITE_DONE { return nil }
      let error = failure(code)
      throw .cannotOpen(path: path, code: error.code, message: error.message)
    }
    return sqlite3_column_text(statement, 0).map { String(cString: $0) }
  }

  /// Finalizes the statements and closes the connection (idempotent).
  func close() {
    for statement in [upsert, begin, commitTransaction, rollback] { sqlite3_finalize(statement) }
    (upsert, begin, commitTransaction, rollback) = (nil, nil, nil, nil)
    sqlite3_close_v2(connection)
    connection = nil
  }

  // MARK: - Statements

  private func write(_ row: SessionRow) throws(SessionStoreError) {
    bind(row.screenID, at: 1)
    if let focused = row.focused { bind(focused, at: 2) } else { sqlite3_bind_null(upsert, 2) }
    bindJSON(row.selected, at: 3)
    bindJSON(row.text, at: 4)
    bindJSON(row.remembered, at: 5)
    bindJSON(row.rememberedOwn, at: 6)
    try step(upsert)
  }

  private func bindJSON(_ list: [String], at index: Int32) {
    scratch.removeAll(keepingCapacity: true)
    CompactJSON.append(list, to: &scratch)
    bindScratch(at: index)
  }

  private func bindJSON(_ map: [String: String], at index: Int32) {
    scratch.removeAll(keepingCapacity: true)
    CompactJSON.append(map, to: &scratch)
    bindScratch(at: index)
  }

  private func bind(_ value: String, at index: Int32) {
    var value = value
    value.withUTF8 { bytes in
      _ = sqlite3_bind_text(upsert, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
    }
  }

  private func bindScratch(at index: Int32) {
    scratch.withUnsafeBufferPointer { bytes in
      _ = bytes.withMemoryRebound(to: CChar.self) { text in
        sqlite3_bind_text(upsert, index, text.baseAddress, Int32(text.count), Self.transient)
      }
    }
  }

  /// Runs `statement` to completion and resets it.
  private func step(_ statement: OpaquePointer?) throws(SessionStoreError) {
    let code = sqlite3_step(statement)
    sqlite3_reset(statement)
    guard code == SQLITE_DONE || code == SQLITE_ROW else {
      let error = failure(code)
      throw .writeFailed(path: path, code: error.code, message: error.message)
    }
  }

  private func execute(_ sql: String) throws(SessionStoreError) {
    let code = sqlite3_exec(connection, sql, nil, nil, nil)
    guard code == SQLITE_OK else {
      let error = failure(code)
      throw .cannotOpen(path: path, code: error.code, message: error.message)
    }
  }

  private func prepare(_ sql: String, persistent: Bool = true) throws(SessionStoreError)
    -> OpaquePointer?
  {
    var statement: OpaquePointer?
    let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    let code = sqlite3_prepare_v3(connection, sql, -1, flags, &statement, nil)
    guard code == SQLITE_OK, statement != nil else {
      let error = failure(code)
      throw .cannotOpen(path: path, code: error.code, message: error.message)
    }
    return statement
  }

  /// SQLite's extended code and message for a failed call (the connection's, when it has one).
  private func failure(_ code: Int32) -> (code: Int32, message: String) {
    guard let connection else { return (code, String(cString: sqlite3_errstr(code))) }
    return (sqlite3_extended_errcode(connection), String(cString: sqlite3_errmsg(connection)))
  }

  /// SQLite copies bound text before the call returns.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
