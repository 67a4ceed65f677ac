import Foundation

/// A PostgreSQL store address: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (also
/// `postgresql://`). The password may also come from `PGPASSWORD`; it never appears in logs.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
  public var user: String
  public var password: String?
  public var host: String
  public var port: Int
  public var database: String

  /// Parses `text`; nil if it is not a `postgres://` URL with a user, a host and a database.
  public init?(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
  {
    guard let components = URLComponents(string: text),
      let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme),
      let user = components.user, !user.isEmpty,
      let host = components.host, !host.isEmpty
    else { return nil }
    let database = String(components.path.drop { $0 == "/" })
    guard !database.isEmpty, !database.contains("/") else { return nil }
    let port = components.port ?? 5432
    guard (1...65_535).contains(port) else { return nil }
    self.user = user
    self.password = components.password ?? environment["PGPASSWORD"]
    self.host = host
    self.port = port
    self.database = database
  }

  /// The URL without its password: safe to log and print.
  public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

  /// Whether `text` names a PostgreSQL store rather than a directory.
  public static func isPostgres(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }
}
