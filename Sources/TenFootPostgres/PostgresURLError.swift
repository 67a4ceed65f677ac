/// Why a store URL was refused: told before any connection is tried.
public enum PostgresURLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Not `postgres://USER[:PASSWORD]@HOST[:PORT]/DB` (the text itself is not repeated: it may
  /// hold a password).
  case malformed
  /// A query parameter other than `sslmode` and `sslrootcert`.
  case unknownParameter(String)
  /// An `sslmode` that is none of `disable`, `prefer`, `require`, `verify-ca`, `verify-full`.
  case unknownSSLMode(String)
  /// `verify-ca` or `verify-full` without `sslrootcert`.
  case missingRootCertificate(mode: PostgresSSLMode)
  /// `sslrootcert` names no readable PEM file with at least one certificate.
  case unreadableRootCertificate(path: String, reason: String)
  /// `sslrootcert=system` with a mode that would not check the certificate (as libpq refuses).
  case weakModeWithSystemRoots(mode: PostgresSSLMode)

  public var description: String {
    switch self {
    case .malformed:
      return "the store is not a postgres://USER[:PASSWORD]@HOST[:PORT]/DB URL"
    case .unknownParameter(let name):
      return
        "unknown store URL parameter '\(name)' (known: sslmode, sslrootcert)"
    case .unknownSSLMode(let value):
      let modes = PostgresSSLMode.allCases.map(\.rawValue).joined(separator: ", ")
      return "unknown sslmode '\(value)' (one of: \(modes))"
    case .missingRootCertificate(let mode):
      return
        "sslmode=\(mode.rawValue) needs sslrootcert=/path/to/ca.pem: the CA that signed the server's certificate"
    case .unreadableRootCertificate(let path, let reason):
      return "sslrootcert \(path): \(reason)"
    case .weakModeWithSystemRoots(let mode):
      return
        "sslrootcert=system needs sslmode verify-ca or verify-full (got \(mode.rawValue))"
    }
  }
}
