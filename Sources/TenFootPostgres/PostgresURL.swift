import Foundation

/// A PostgreSQL store address:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE&sslrootcert=PATH]` (also
/// `postgresql://`). The password may also come from `PGPASSWORD`; it never appears in logs.
/// `sslmode` and `sslrootcert` mean what they mean to libpq (see ``PostgresSSLMode``).
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
  public var user: String
  public var password: String?
  public var host: String
  public var port: Int
  public var database: String
  /// How the connection uses TLS (`sslmode`; ``PostgresSSLMode/standard`` when absent).
  public var sslMode: PostgresSSLMode
  /// `sslrootcert`: a PEM file of the CA certificates that may sign the server's certificate,
  /// or `system` for the system's trust store; nil when absent.
  public var rootCertificate: String?

  /// Parses `text`, or throws why it is not a store URL. A root certificate file that the mode
  /// uses is read now, so a missing or unreadable one is told before anything connects.
  public init(
    parsing text: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(PostgresURLError) {
    guard let components = URLComponents(string: text),
      let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme),
      let user = components.user, !user.isEmpty,
      let host = components.host, !host.isEmpty
    else { throw .malformed }
    let database = String(components.path.drop { $0 == "/" })
    guard !database.isEmpty, !database.contains("/") else { throw .malformed }
    let port = components.port ?? 5432
    guard (1...65_535).contains(port) else { throw .malformed }
    var sslMode: PostgresSSLMode?
    var rootCertificate: String?
    for item in components.queryItems ?? [] {
      switch item.name {
      case "sslmode":
        guard let mode = PostgresSSLMode(rawValue: item.value ?? "") else {
          throw .unknownSSLMode(item.value ?? "")
        }
        sslMode = mode
      case "sslrootcert":
        rootCertificate = item.value.flatMap { $0.isEmpty ? nil : $0 }
      default:
        throw .unknownParameter(item.name)
      }
    }
    self.user = user
    self.password = components.password ?? environment["PGPASSWORD"]
    self.host = host
    self.port = port
    self.database = database
    // libpq: sslrootcert=system without a mode means verify-full, and a weaker mode is refused.
    if rootCertificate == "system" {
      let mode = sslMode ?? .verifyFull
      guard mode.verifiesChain else { throw .weakModeWithSystemRoots(mode: mode) }
      sslMode = mode
    }
    self.sslMode = sslMode ?? .standard
    self.rootCertificate = rootCertificate
    if self.sslMode.verifiesChain, rootCertificate == nil {
      throw .missingRootCertificate(mode: self.sslMode)
    }
    if usesRootCertificate { _ = try trustedCertificates() }
  }

  /// Parses `text`; nil if it is not a store URL (``init(parsing:environment:)`` says why).
  public init?(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
  {
    guard let url = try? PostgresURL(parsing: text, environment: environment) else { return nil }
    self = url
  }

  /// The URL without its password: safe to log and print. The TLS parameters are shown unless
  /// they are the default.
  public var description: String {
    var parameters: [String] = []
    if sslMode != .standard || rootCertificate != nil {
      parameters.append("sslmode=\(sslMode.rawValue)")
    }
    if let rootCertificate { parameters.append("sslrootcert=\(rootCertificate)") }
    let query = parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&")
    return "postgres://\(user)@\(host):\(port)/\(database)\(query)"
  }

  /// Whether `text` names a PostgreSQL store rather than a directory.
  public static func isPostgres(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }
}
