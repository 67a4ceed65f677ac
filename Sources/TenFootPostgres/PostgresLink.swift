import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import TenFootStore

/// One PostgreSQL connection, used synchronously (`query`: the caller's thread, never an event
/// loop, waits, bounded, for each query's future) or asynchronously (`send`: the answer comes
/// back on the PostgreSQL event loop thread, for a caller that must not wait, the broker's
/// loop committing a zone's batch). The connection runs on the process's own PostgreSQL event
/// loop thread. A connection that fails or times out is closed and opened again on the next
/// call, so service resumes by itself when the server is back.
///
/// One owner at a time calls it. (`@unchecked Sendable` so a standby can hand its warm link to
/// the broker thread it starts, thread start ordering the handover, and so `send`'s callbacks
/// can drop or install the connection: `stored` is only touched under `lock`; the rest is
/// immutable or touched by the owner only.)
public final class PostgresLink: @unchecked Sendable {
  /// The store's address.
  public let url: PostgresURL
  /// How long a connect or a query may take before it counts as a failure.
  public let timeout: TimeAmount
  private let logger: Logger
  private let lock = NSLock()
  private var stored: PostgresConnection?
  /// The open connection, if any (under `lock`: `send`'s callbacks change it).
  private var connection: PostgresConnection? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
  /// How many `send`s are unanswered (under `lock`).
  private var sending = 0
  private var nextID = 0
  /// The TLS mode with its context, made on the first connect and kept (a context per
  /// connection would read `sslrootcert` each time).
  private var tls: PostgresConnection.Configuration.TLS?

  /// One event loop thread for every PostgreSQL connection of the process.
  static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

  /// A link to `url` (not connected until the first query).
  public init(url: PostgresURL, timeout: TimeAmount = .seconds(2), logger: Logger) {
    self.url = url
    self.timeout = timeout
    self.logger = logger
  }

  deinit { close() }

  /// Whether work sent with `send` is still unanswered: a `query` now would wait behind it on
  /// the connection (for as long as a held commit or write takes), so an owner that must not
  /// wait (the broker's loop checking its allow-list) asks later instead.
  public var isSending: Bool { lock.withLock { sending > 0 } }

  /// Whether a connection is open now.
  public var isConnected: Bool { connection.map { !$0.isClosed } ?? false }

  /// Runs `query` and returns its rows and command tag; throws `.unavailable` (the connection
  /// is dropped unless the server itself answered the error), or `.outcomeUnknown` when the
  /// query was sent on an open connection but no answer came (timeout, connection broken): the
  /// server may have run it.
  @discardableResult
  public func query(_ query: PostgresQuery) throws(SessionStoreError) -> PostgresQueryResult {
    let connection = try connected()
    do {
      return try Self.wait(connection.query(query, logger: logger), timeout: timeout)
    } catch {
      let failure = describe(error)
      if failure.code.isEmpty {
        close()
        throw .outcomeUnknown(store: url.description, message: failure.message)
      }
      throw .unavailable(store: url.description, code: failure.code, message: failure.message)
    }
  }

  /// Runs `work` on the connection (opened first, without waiting, if none is open) and
  /// returns at once; `answered` is called once, on the PostgreSQL event loop thread, with its
  /// value or the failure `query` would throw: `.unavailable` if no connection could be opened
  /// (in `timeout`, or twice that when it must connect first) or the server answered an
  /// error, `.outcomeUnknown` if the work started and no answer came by then or the
  /// connection broke (the connection is then dropped, so the next call opens another).
  public func send<Value: Sendable>(
    _ work: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<Value>,
    answered: @escaping @Sendable (Result<Value, SessionStoreError>) -> Void
  ) {
    lock.withLock { sending += 1 }
    let once = AnswerOnce(
      { [self] result in
        lock.withLock { sending -= 1 }
        answered(result)
      }, store: url.description)
    let opening: EventLoopFuture<PostgresConnection>
    var limit = timeout
    if let connection, !connection.isClosed {
      opening = connection.eventLoop.makeSucceededFuture(connection)
    } else {
      do {
        opening = try connect()
      } catch {
        return once.answer(.failure(error))
      }
      limit = timeout + timeout
      opening.whenSuccess { [self] opened in install(opened) }
    }
    let milliseconds = Int(limit.nanoseconds / 1_000_000)
    let timer = opening.eventLoop.scheduleTask(in: limit) { [self] in
      if let used = once.timeOut(after: milliseconds) { abandon(used) }
    }
    opening.whenFailure { [self] error in
      timer.cancel()
      let failure = describe(error)
      once.answer(
        .failure(.unavailable(store: url.description, code: failure.code, message: failure.message))
      )
    }
    opening.whenSuccess { [self] connection in
      // Not started once the deadline answered: nothing is sent after "unavailable".
      guard once.start(on: connection) else { return }
      work(connection).whenComplete { [self] result in
        timer.cancel()
        finish(result, on: connection, once)
      }
    }
  }

  /// Answers `once` with what the work on `connection` produced.
  private func finish<Value: Sendable>(
    _ result: Result<Value, any Error>, on connection: PostgresConnection,
    _ once: AnswerOnce<Value>
  ) {
    switch result {
    case .success(let value): once.answer(.success(value))
    case .failure(let error):
      let failure = describe(error)
      guard failure.code.isEmpty else {
        return once.answer(
          .failure(
            .unavailable(store: url.description, code: failure.code, message: failure.message)))
      }
      abandon(connection)
      once.answer(.failure(.outcomeUnknown(store: url.description, message: failure.message)))
    }
  }

  /// Makes `opened` the connection (from `send`'s callback); one it replaces is closed.
  private func install(_ opened: PostgresConnection) {
    let replaced = lock.withLock {
      defer { stored = opened }
      return stored
    }
    if let replaced, replaced !== opened { Self.closeLater(replaced) }
  }

  /// Drops `connection` (a query on it went unanswered) without waiting for it to close.
  private func abandon(_ connection: PostgresConnection) {
    lock.withLock { if stored === connection { stored = nil } }
    Self.closeLater(connection)
  }

  /// Starts closing `connection`; postgres-nio requires a connection to be closed before it is
  /// released: the closure keeps it until then.
  private static func closeLater(_ connection: PostgresConnection) {
    let closed: EventLoopFuture<Void> = connection.close()
    closed.whenComplete { _ in _ = connection }
  }

  /// Closes the connection (a session-level advisory lock held on it is released).
  public func close() {
    guard let connection else { return }
    self.connection = nil
    let closed: EventLoopFuture<Void> = connection.close()
    // postgres-nio requires a connection to be closed before it is released: the closure
    // keeps it until then, even past a timeout here.
    closed.whenComplete { _ in _ = connection }
    _ = try? Self.wait(closed, timeout: timeout)
  }

  private func connected() throws(SessionStoreError) -> PostgresConnection {
    if let connection, !connection.isClosed { return connection }
    connection = nil
    let connecting = try connect()
    do {
      let opened = try Self.wait(connecting, timeout: timeout + .milliseconds(100))
      connection = opened
      return opened
    } catch {
      let failure = describe(error)
      throw .unavailable(store: url.description, code: failure.code, message: failure.message)
    }
  }

  /// Starts opening a connection (not installed).
  private func connect() throws(SessionStoreError) -> EventLoopFuture<PostgresConnection> {
    let tls = try connectionTLS()
    var configuration = PostgresConnection.Configuration(
      host: url.host, port: url.port, username: url.user, password: url.password,
      database: url.database, tls: tls)
    configuration.options.connectTimeout = timeout
    nextID += 1
    return PostgresConnection.connect(
      on: Self.group.next(), configuration: configuration, id: nextID, logger: logger)
  }

  /// The TLS mode for the next connect; warns once when the server's identity goes unchecked
  /// on a non-loopback host.
  private func connectionTLS() throws(SessionStoreError) -> PostgresConnection.Configuration.TLS {
    if let tls { return tls }
    let made: PostgresConnection.Configuration.TLS
    do {
      made = try url.connectionTLS()
    } catch {
      throw .unavailable(store: url.description, code: "", message: error.description)
    }
    if url.sslMode != .verifyFull, !Self.isLoopback(url.host) {
      logger.warning(
        "zone store: the server's identity is not checked (use sslmode=verify-full)",
        metadata: ["store": "\(url)", "sslmode": "\(url.sslMode.rawValue)"])
    }
    tls = made
    return made
  }

  /// Whether `host` is this machine (no network between the broker and the store).
  static func isLoopback(_ host: String) -> Bool {
    host == "localhost" || host == "::1"
      || (host.hasPrefix("127.") && host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber })
  }

  /// The SQLSTATE (empty unless the server answered) and a message without secrets.
  private func describe(_ error: any Error) -> (code: String, message: String) {
    if let error = error as? PSQLError {
      if let info = error.serverInfo {
        return (info[.sqlState] ?? "", info[.message] ?? "server error")
      }
      if error.code == .sslUnsupported {
        return ("", "the server does not offer TLS (sslmode=\(url.sslMode.rawValue))")
      }
      if let underlying = error.underlying {
        if let tls = PostgresTLSFailure(underlying, url: url) { return ("", tls.description) }
        return ("", "\(error.code): \(underlying)")
      }
      return ("", "\(error.code)")
    }
    if let tls = PostgresTLSFailure(error, url: url) { return ("", tls.description) }
    return ("", "\(error)")
  }

  /// Waits for `future` on this (non-event-loop) thread, at most `timeout`.
  static func wait<Value: Sendable>(_ future: EventLoopFuture<Value>, timeout: TimeAmount)
    throws -> Value
  {
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome<Value>()
    future.whenComplete { result in
      outcome.set(result)
      done.signal()
    }
    let nanoseconds = max(0, Int(timeout.nanoseconds))
    guard done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else {
      throw LinkTimeout(milliseconds: nanoseconds / 1_000_000)
    }
    return try outcome.get()
  }
}

/// A query or connect that did not finish in time.
struct LinkTimeout: Error, CustomStringConvertible {
  var milliseconds: Int
  var description: String { "no answer within \(milliseconds) ms" }
}

/// An answer given at most once: `send`'s work and its deadline race, the first one answers.
/// The deadline answers `.unavailable` if the work never started (nothing was sent), else
/// `.outcomeUnknown`; work that has not started by then never does.
private final class AnswerOnce<Value: Sendable>: @unchecked Sendable {
  // @unchecked Sendable is sound: `answered` and `connection` are only touched under `lock`;
  // `body` and `store` are immutable.
  private let lock = NSLock()
  private var answered = false
  private var connection: PostgresConnection?
  private let body: @Sendable (Result<Value, SessionStoreError>) -> Void
  private let store: String

  init(_ body: @escaping @Sendable (Result<Value, SessionStoreError>) -> Void, store: String) {
    self.body = body
    self.store = store
  }

  /// Notes that the work starts on `connection`; false if the deadline answered already.
  func start(on connection: PostgresConnection) -> Bool {
    lock.withLock {
      guard !answered else { return false }
      self.connection = connection
      return true
    }
  }

  func answer(_ result: Result<Value, SessionStoreError>) {
    let first = lock.withLock {
      defer { answered = true }
      return !answered
    }
    if first { body(result) }
  }

  /// The deadline passed: answers if nothing did, and returns the connection the work was
  /// sent on (to drop it), if it started.
  func timeOut(after milliseconds: Int) -> PostgresConnection? {
    let (first, used) = lock.withLock {
      defer { answered = true }
      return (!answered, connection)
    }
    guard first else { return nil }
    let late = LinkTimeout(milliseconds: milliseconds).description
    if let used {
      body(.failure(.outcomeUnknown(store: store, message: late)))
      return used
    }
    body(.failure(.unavailable(store: store, code: "", message: "could not connect: \(late)")))
    return nil
  }
}

/// A future's result handed from the event loop to the waiting thread.
private final class Outcome<Value: Sendable>: @unchecked Sendable {
  // @unchecked Sendable is sound: `result` is only touched under `lock`.
  private let lock = NSLock()
  private var result: Result<Value, any Error>?

  func set(_ new: Result<Value, any Error>) { lock.withLock { result = new } }

  func get() throws -> Value {
    guard let result = lock.withLock({ result }) else { throw LinkTimeout(milliseconds: 0) }
    return try result.get()
  }
}
