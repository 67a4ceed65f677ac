import Foundation
import PostgresNIO

// PostgresNIO re-exports NIOSSL (TLSConfiguration, NIOSSLContext, NIOSSLCertificate), so the
// package needs no dependency of its own on swift-nio-ssl.

extension PostgresURL {
  /// Whether the server's certificate is checked: nothing (`disable`, `prefer`, `require`
  /// without `sslrootcert`), the chain (`verify-ca`, and `require` with `sslrootcert` as in
  /// libpq), or the chain and the host (`verify-full`).
  public var certificateVerification: CertificateVerification {
    switch sslMode {
    case .disable, .prefer: .none
    case .require: rootCertificate == nil ? .none : .noHostnameVerification
    case .verifyCA: .noHostnameVerification
    case .verifyFull: .fullVerification
    }
  }

  /// Whether `sslrootcert` is read: whenever the certificate is checked against it.
  var usesRootCertificate: Bool { certificateVerification != .none }

  /// swift-nio-ssl's client configuration for this URL; nil for `disable`. Reads `sslrootcert`.
  public func tlsConfiguration() throws(PostgresURLError) -> TLSConfiguration? {
    guard sslMode != .disable else { return nil }
    var configuration = TLSConfiguration.makeClientConfiguration()
    configuration.certificateVerification = certificateVerification
    if usesRootCertificate {
      if let certificates = try trustedCertificates() {
        configuration.trustRoots = .certificates(certificates)
      } else {
        configuration.trustRoots = .default
      }
    } else {
      // Nothing is verified: no trust store needs to be loaded.
      configuration.trustRoots = .certificates([])
    }
    return configuration
  }

  /// PostgresNIO's TLS mode: `.disable`, `.prefer` or `.require` with a context built from
  /// ``tlsConfiguration()``.
  public func connectionTLS() throws(PostgresURLError) -> PostgresConnection.Configuration.TLS {
    guard let configuration = try tlsConfiguration() else { return .disable }
    let context: NIOSSLContext
    do {
      context = try NIOSSLContext(configuration: configuration)
    } catch {
      throw .unreadableRootCertificate(
        path: rootCertificate ?? "(none)", reason: "cannot set up TLS: \(error)")
    }
    return sslMode == .prefer ? .prefer(context) : .require(context)
  }

  /// The certificates of `sslrootcert`, or nil for `system` (the system's trust store).
  func trustedCertificates() throws(PostgresURLError) -> [NIOSSLCertificate]? {
    guard let path = rootCertificate else { throw .missingRootCertificate(mode: sslMode) }
    if path == "system" { return nil }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw .unreadableRootCertificate(path: path, reason: "no such file, or not readable")
    }
    let certificates: [NIOSSLCertificate]
    do {
      certificates = try NIOSSLCertificate.fromPEMFile(path)
    } catch {
      throw .unreadableRootCertificate(
        path: path, reason: "not a PEM file of certificates (\(error))")
    }
    guard !certificates.isEmpty else {
      throw .unreadableRootCertificate(path: path, reason: "holds no PEM certificate")
    }
    return certificates
  }
}
