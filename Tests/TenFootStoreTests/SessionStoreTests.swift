import Foundation
import Logging
import TenFootStore
import TestSupport
import Testing

/// The SQLite session store on its own: round trips, group commits, damaged files set aside,
/// a newer format refused.
@Suite("Session store (SQLite, WAL)")
struct SessionStoreTests {
  let logger = Logger(label: "test")

  @Test("records committed together come back after reopening; one commit per batch")
  func roundTrip() throws {
    let directory = try TemporaryDirectory()
    let a = SessionRow(
      screenID: "a", focused: "r0c1", selected: ["r1c0", "r0c0"], text: ["q": "kept"],
      remembered: ["top": "r0c1"], rememberedOwn: ["top": "r0c1"])
    let b = SessionRow(screenID: "b", focused: nil, selected: [])
    do {
      let store = try SessionStore(directory: directory.path, logger: logger)
      try store.commit([a, b])
      #expect(store.commits == 1)
      var changed = a
      changed.focused = "r0c0"
      try store.commit([changed])
      #expect(store.commits == 2)
      #expect(store.record(for: "a") == changed)
      // WAL journal, synchronous FULL (2): a returned commit is on disk.
      let journal = try #require(store.journal())
      #expect(journal.mode == "wal")
      #expect(journal.synchronous == 2)
      // Exclusive: no shared-memory wal-index, no lock calls per commit.
      #expect(journal.locking == "exclusive")
      #expect(!FileManager.default.fileExists(atPath: store.path + "-shm"))
      store.close()
    }
    let reopened = try SessionStore(directory: directory.path, logger: logger)
    #expect(reopened.records.count == 2)
    #expect(reopened.record(for: "a")?.focused == "r0c0")
    #expect(reopened.record(for: "a")?.selected == ["r0c0", "r1c0"])
    #expect(reopened.record(for: "a")?.text == ["q": "kept"])
    #expect(reopened.record(for: "b") == b)
  }

  @Test("hostile strings survive the columns' JSON: quotes, backslashes, controls, marks")
  func hostileStrings() throws {
    let directory = try TemporaryDirectory()
    let nasty = [
      "\"", "\\", "a\"b\\c", "\u{0}", "\u{1}\u{1F}\n\r\t\u{8}\u{C}", "\"\u{301}",
      "\u{301}\"", "é", "e\u{301}", "👩‍👩‍👧", "\u{2028}\u{2029}", "</script>", "{\"k\":1}", "",
    ]
    let row = SessionRow(
      screenID: "s\"\u{301}", focused: "\"\u{301}", selected: nasty,
      text: Dictionary(
        uniqueKeysWithValues: nasty.enumerated().map { ("k\($0.offset)\($0.element)", $0.element) }),
      remembered: ["\"": "\\", "\u{0}": "\n"], rememberedOwn: ["\"\u{301}": "👩‍👩‍👧"])
    do {
      let store = try SessionStore(directory: directory.path, logger: logger)
      try store.commit([row])
      store.close()
    }
    let reopened = try SessionStore(directory: directory.path, logger: logger)
    #expect(reopened.records == [row.screenID: row])
  }

  @Test("a row equal to the durable record is not written again: no transaction for it")
  func unchangedRowsSkipped() throws {
    let directory = try TemporaryDirectory()
    let store = try SessionStore(directory: directory.path, logger: logger)
    let a = SessionRow(screenID: "a", focused: "x", selected: ["y"])
    let b = SessionRow(screenID: "b", focused: nil, selected: [])
    try store.commit([a])
    #expect(store.commits == 1)
    try store.commit([a])
    #expect(store.commits == 1)
    try store.commit([a, b])
    #expect(store.commits == 2)
    #expect(store.records == ["a": a, "b": b])
  }

  @Test("a sessions.json of one day's development builds is no longer read, nor touched")
  func legacyFileIgnored() throws {
    let directory = try TemporaryDirectory()
    try directory.write("sessions.json", #"{"version":1,"screens":{"tv":{"focused":"r2c2"}}}"#)
    let store = try SessionStore(directory: directory.path, logger: logger)
    #expect(store.records.isEmpty)
    #expect(FileManager.default.fileExists(atPath: directory.path + "/sessions.json"))
  }

  @Test("a damaged database is set aside with what it held, and the store starts empty")
  func damagedDatabase() throws {
    let directory = try TemporaryDirectory()
    let garbage = String(repeating: "this is not a database ", count: 400)
    try directory.write("sessions.sqlite", garbage)
    let store = try SessionStore(directory: directory.path, logger: logger)
    #expect(store.records.isEmpty)
    try store.commit([SessionRow(screenID: "tv", focused: "r0c0", selected: [])])
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    let aside = try #require(names.first { $0.hasPrefix("sessions.sqlite.corrupt-") })
    #expect(try String(contentsOfFile: directory.path + "/" + aside, encoding: .utf8) == garbage)
  }

  @Test("a database written by a newer TenFoot is refused, not overwritten")
  func newerFormat() throws {
    let directory = try TemporaryDirectory()
    try SessionStore(directory: directory.path, logger: logger).close()
    let sqlite = Process()
    sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    sqlite.arguments = [
      "python3", "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
        + "c.execute(\"INSERT INTO grdb_migrations VALUES ('v99-future')\"); c.commit()",
      directory.path + "/sessions.sqlite",
    ]
    try sqlite.run()
    sqlite.waitUntilExit()
    try #require(sqlite.terminationStatus == 0)
    #expect(
      throws: SessionStoreError.newerFormat(
        path: directory.path + "/sessions.sqlite", migrations: ["v99-future"])
    ) {
      try SessionStore(directory: directory.path, logger: logger)
    }
  }

  @Test("a directory that cannot hold a database is a typed error that names it")
  func cannotOpen() throws {
    let directory = try TemporaryDirectory()
    let missing = directory.path + "/missing/deeper"
    let error = try #require(throws: SessionStoreError.self) {
      try SessionStore(directory: missing, logger: logger)
    }
    guard case .cannotOpen(let path, let code, _) = error else {
      Issue.record("expected cannotOpen, got \(error)")
      return
    }
    #expect(path == missing + "/sessions.sqlite")
    #expect(code == 14)  // SQLITE_CANTOPEN
  }

  @Test(
    "on a full disk a commit of one row or of a batch fails typed and writes nothing",
    .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
  func fullDisk() throws {
    let directory = try TemporaryDirectory()
    let disk = try SmallFilesystem(at: directory.path + "/data", size: "1m")
    defer { disk.unmount() }
    let before = [
      SessionRow(screenID: "a", focused: "r0c0", selected: []),
      SessionRow(screenID: "b", focused: "r0c0", selected: []),
    ]
    let after = [
      SessionRow(screenID: "a", focused: "r0c1", selected: ["r0c1"]),
      SessionRow(screenID: "b", focused: "r0c2", selected: [String(repeating: "x", count: 9000)]),
    ]
    do {
      let store = try SessionStore(directory: disk.path, logger: logger)
      try store.commit(before)
      try disk.fill()
      // One row: SQLite's autocommit transaction. A batch: BEGIN IMMEDIATE … COMMIT.
      for changes in [[after[0]], after] {
        let error = try #require(throws: SessionStoreError.self) { try store.commit(changes) }
        guard case .writeFailed(let path, let code, _) = error else {
          Issue.record("expected writeFailed, got \(error)")
          return
        }
        #expect(path == disk.path + "/sessions.sqlite")
        #expect(code & 0xFF == 13, "SQLITE_FULL, got \(code)")
        #expect(store.records == ["a": before[0], "b": before[1]], "records unchanged")
        #expect(store.commits == 1)
      }
      disk.free()
      try store.commit(after)
      #expect(store.commits == 2)
      store.close()
    }
    let reopened = try SessionStore(directory: disk.path, logger: logger)
    #expect(reopened.records == ["a": after[0], "b": after[1]])
  }
}
