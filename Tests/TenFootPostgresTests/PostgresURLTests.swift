import Foundation
import TenFootPostgres
import TestSupport
import Testing

/// The store URL's TLS parameters (libpq's `sslmode` and `sslrootcert`), without a server.
@Suite("Store URL")
struct PostgresURLTests {
  static let base = "postgres://tenfoot:secret@store.example:5433/tenfoot"

  /// A readable PEM file with one certificate (a throw-away CA).
  static func rootFile(in directory: TemporaryDirectory) throws -> String {
    try TestCertificates.make(in: directory.path).ca
  }

  @Test("without sslmode the URL prefers TLS and checks nothing, as libpq; nothing changes in it")
  func defaultMode() throws {
    let url = try PostgresURL(
      parsing: "postgres://tenfoot@127.0.0.1:5432/postgres", environment: [:])
    #expect(url.sslMode == .prefer)
    #expect(url.rootCertificate == nil)
    #expect(url.certificateVerification == .none)
    #expect(url.description == "postgres://tenfoot@127.0.0.1:5432/postgres")
  }

  @Test(
    "every sslmode parses to its verification; the description keeps it and drops the password",
    arguments: [
      ("disable", false, "none"), ("prefer", false, "none"), ("require", false, "none"),
      ("require", true, "noHostnameVerification"), ("verify-ca", true, "noHostnameVerification"),
      ("verify-full", true, "fullVerification"),
    ])
  func modes(mode: String, withRoot: Bool, verification: String) throws {
    let directory = try TemporaryDirectory()
    let root = try Self.rootFile(in: directory)
    let text = Self.base + "?sslmode=\(mode)" + (withRoot ? "&sslrootcert=\(root)" : "")
    let url = try PostgresURL(parsing: text, environment: [:])
    #expect(url.sslMode.rawValue == mode)
    // swift-nio-ssl prints `.none` with its options: "none(…)".
    #expect("\(url.certificateVerification)".hasPrefix(verification))
    #expect(url.password == "secret")
    #expect(!url.description.contains("secret"))
    // The default mode alone is not shown: descriptions from before TLS stay as they were.
    let query =
      mode == "prefer" && !withRoot
      ? "" : "?sslmode=\(mode)" + (withRoot ? "&sslrootcert=\(root)" : "")
    #expect(url.description == "postgres://tenfoot@store.example:5433/tenfoot" + query)
    let configuration = try url.tlsConfiguration()
    #expect((configuration == nil) == (mode == "disable"))
    if let configuration {
      #expect("\(configuration.certificateVerification)".hasPrefix(verification))
    }
    _ = try url.connectionTLS()  // The context builds (the CA file loads).
  }

  @Test("the password may come from PGPASSWORD and never shows in the description")
  func passwordFromEnvironment() throws {
    let url = try PostgresURL(
      parsing: "postgres://tenfoot@store.example/tenfoot?sslmode=require",
      environment: ["PGPASSWORD": "hunter2"])
    #expect(url.password == "hunter2")
    #expect(url.description == "postgres://tenfoot@store.example:5432/tenfoot?sslmode=require")
  }

  @Test("bad values are refused with a typed error that says what to fix")
  func refusals() throws {
    let directory = try TemporaryDirectory()
    let empty = directory.path + "/empty.pem"
    try Data().write(to: URL(fileURLWithPath: empty))
    let cases: [(String, PostgresURLError)] = [
      ("?sslmode=verify_full", .unknownSSLMode("verify_full")),
      ("?sslmode=", .unknownSSLMode("")),
      ("?sslmode=allow", .unknownSSLMode("allow")),
      ("?ssl=true", .unknownParameter("ssl")),
      ("?sslmode=verify-full", .missingRootCertificate(mode: .verifyFull)),
      ("?sslmode=verify-ca", .missingRootCertificate(mode: .verifyCA)),
      (
        "?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem",
        .unreadableRootCertificate(
          path: "/nonexistent/ca.pem", reason: "no such file, or not readable")
      ),
      (
        "?sslmode=verify-ca&sslrootcert=\(empty)",
        .unreadableRootCertificate(
          path: empty, reason: "not a PEM file of certificates (failedToLoadCertificate)")
      ),
      ("?sslmode=require&sslrootcert=system", .weakModeWithSystemRoots(mode: .require)),
    ]
    for (query, expected) in cases {
      #expect(throws: expected) { try PostgresURL(parsing: Self.base + query, environment: [:]) }
      #expect(PostgresURL(Self.base + query, environment: [:]) == nil)
    }
    #expect(throws: PostgresURLError.malformed) {
      try PostgresURL(parsing: "mysql://tenfoot:secret@store.example/tenfoot", environment: [:])
    }
    #expect(!PostgresURLError.malformed.description.contains("secret"))
    #expect(
      PostgresURLError.unknownSSLMode("verify_full").description
        == "unknown sslmode 'verify_full' (one of: disable, prefer, require, verify-ca, verify-full)"
    )
    #expect(
      PostgresURLError.missingRootCertificate(mode: .verifyFull).description
        == "sslmode=verify-full needs sslrootcert=/path/to/ca.pem: the CA that signed the server's certificate"
    )
  }

  @Test("sslrootcert=system alone means verify-full with the system's trust store, as libpq")
  func systemRoots() throws {
    let url = try PostgresURL(
      parsing: Self.base + "?sslrootcert=system", environment: [:])
    #expect(url.sslMode == .verifyFull)
    #expect(url.certificateVerification == .fullVerification)
    #expect(try url.tlsConfiguration()?.trustRoots == .default)
  }
}
