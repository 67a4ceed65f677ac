/// How a zone store connection uses TLS: the URL's `sslmode`, with libpq's meanings.
///
/// | mode | encrypted | server's certificate checked |
/// | --- | --- | --- |
/// | `disable` | never | no |
/// | `prefer` (the default) | if the server offers TLS | no |
/// | `require` | always | no (chain only if `sslrootcert` is given, as in libpq) |
/// | `verify-ca` | always | chain against `sslrootcert` |
/// | `verify-full` | always | chain against `sslrootcert`, and the host name or address |
public enum PostgresSSLMode: String, Sendable, Equatable, CaseIterable {
  /// No TLS: the password exchange and every row cross the network in the clear.
  case disable
  /// TLS when the server offers it, else plain; no certificate check. libpq's default.
  case prefer
  /// TLS or no connection; the certificate is not checked (an active attacker can pose as the
  /// server).
  case require
  /// TLS, and the server's chain must lead to a certificate in `sslrootcert`.
  case verifyCA = "verify-ca"
  /// TLS, the chain must lead to `sslrootcert`, and the certificate must name the URL's host
  /// (a DNS name in its subject alternative names, or the IP address for an address).
  case verifyFull = "verify-full"

  /// The mode when the URL names none: `prefer`, as libpq (so stores without TLS keep working;
  /// deployments over a network should say `verify-full`).
  public static let standard = PostgresSSLMode.prefer

  /// Whether this mode checks the server's certificate chain.
  public var verifiesChain: Bool { self == .verifyCA || self == .verifyFull }
}
