import PostgresNIO

/// A TLS handshake failure told as the certificate problem it is, for the store's errors and
/// logs: swift-nio-ssl's own errors name BoringSSL's codes, not the cause an operator fixes.
struct PostgresTLSFailure: Sendable, Equatable, CustomStringConvertible {
  /// The sentence: which check failed, and what to look at.
  var description: String

  /// The failure `error` stands for, or nil when it is no TLS error.
  init?(_ error: any Error, url: PostgresURL) {
    let detail = "\(error)"
    let roots = url.rootCertificate.map { "sslrootcert \($0)" } ?? "the trusted CAs"
    if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
      description =
        "TLS: the server's certificate does not name \(url.host) "
        + "(sslmode=verify-full: its subject alternative names must include the URL's host)"
    } else if error is NIOSSLError, detail.contains("CERTIFICATE_VERIFY_FAILED") {
      description =
        "TLS: the server's certificate failed verification: not signed by a CA in \(roots), "
        + "or expired (CERTIFICATE_VERIFY_FAILED)"
    } else if error is NIOSSLError || error is NIOSSLExtraError {
      description = "TLS handshake with the server failed: \(detail)"
    } else {
      return nil
    }
  }
}
