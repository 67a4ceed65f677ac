import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import TenFootStore

/// One PostgreSQL connection used synchronously: the caller's thread (the broker's loop, never
/// an event loop) waits, bounded, for each query's future. The connection runs on the
/// process's own PostgreSQL event loop thread. A connection that fails or times out is closed
/// and opened again on the next call, so service resumes by itself when the server is back.
///
/// Not thread-safe: one owner at a time. (`@unchecked Sendable` so a standby can hand its warm
/// link to the broker thread it starts: thread start orders the handover.)
public final class PostgresLink: @unchecked Sendable {
  /// The store's address.
  public let url: PostgresURL
  /// How long a connect or a query may take before it counts as a failure.
  public let timeout: TimeAmount
  private let logger: Logger
  private var connection: PostgresConnection?
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
    let tls = try connectionTLS()
    var configuration = PostgresConnection.Configuration(
      host: url.host, port: url.port, username: url.user, password: url.password,
      database: url.database, tls: tls)
    configuration.options.connectTimeout = timeout
    nextID += 1
    do {
      let opened = try Self.wait(
        PostgresConnection.connect(
          on: Self.group.next(), configuration: configuration, id: nextID, logger: logger),
        timeout: timeout + .milliseconds(100))
      connection = opened
      return opened
    } catch {
      let failure = describe(error)
      throw .unavailable(store: url.description, code: failure.code, message: failure.message)
    }
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
