import Foundation
import Logging
import TenFootPostgres
import TenFootStore
import TestSupport
import Testing

/// The zone store over TLS to a real, throw-away PostgreSQL 15 that takes TLS connections
/// only (`hostssl`, and `hostnossl … reject`), with a server certificate from a throw-away CA
/// that names `localhost` (or, in one test, the address `127.0.0.1`).
@Suite("Zone store over TLS (PostgreSQL)", .enabled(if: TestPostgres.shouldRun), .serialized)
struct ZoneTLSTests {
  let logger = Logger(label: "test")
  /// What a fresh store's first migration applies: every version.
  static let allMigrations = Array(1...ZoneSchema.latest)

  /// A cluster with `ssl=on` that refuses plain TCP connections, and the certificates.
  final class Cluster {
    let postgres: TestPostgres
    let files: TemporaryDirectory
    let certificates: TestCertificates

    /// A cluster whose certificate names `names` (subject alternative names).
    init(names: String = "DNS:localhost") throws {
      files = try TemporaryDirectory()
      certificates = try TestCertificates.make(in: files.path, names: names)
      postgres = try TestPostgres()
      // The server reads its key as the user it runs as (postgres, when the tests run as
      // root), and refuses a key others can read.
      let certificate = postgres.directory + "/server.crt"
      let key = postgres.directory + "/server.key"
      try FileManager.default.copyItem(atPath: certificates.serverCertificate, toPath: certificate)
      try FileManager.default.copyItem(atPath: certificates.serverKey, toPath: key)
      guard chmod(key, 0o600) == 0 else { throw CocoaError(.fileWriteNoPermission) }
      if getuid() == 0, let user = getpwnam("postgres") {
        for file in [certificate, key] {
          guard chown(file, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
            throw CocoaError(.fileWriteNoPermission)
          }
        }
      }
      let data = postgres.directory + "/data"
      let settings = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/postgresql.conf"))
      try settings.seekToEnd()
      try settings.write(
        contentsOf: Data(
          "ssl = on\nssl_cert_file = '\(certificate)'\nssl_key_file = '\(key)'\n".utf8))
      try settings.close()
      // Written in place (not replaced), so the file keeps its owner.
      let rules = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/pg_hba.conf"))
      try rules.truncate(atOffset: 0)
      try rules.write(
        contentsOf: Data(
          """
          local all all trust
          hostssl all all 127.0.0.1/32 trust
          hostssl all all ::1/128 trust
          hostnossl all all 0.0.0.0/0 reject
          hostnossl all all ::/0 reject

          """.utf8))
      try rules.close()
      postgres.stop()
      try postgres.start()  // pg_ctl -w: returns once the server takes connections.
    }

    /// The store URL for `host` with the query `parameters`.
    func url(host: String = "localhost", _ parameters: String) throws -> PostgresURL {
      try PostgresURL(
        parsing: "postgres://tenfoot@\(host):\(postgres.port)/postgres?\(parameters)",
        environment: [:])
    }

    /// Whether the server has TCP connections now, and all of them use TLS.
    func allConnectionsEncrypted() throws -> Bool {
      try postgres.psql(
        """
        SELECT count(*) > 0 AND bool_and(s.ssl)
        FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.client_addr IS NOT NULL
        """) == "t"
    }
  }

  @Test("verify-full with the right CA connects over TLS, and the zone store works")
  func verifyFullConnects() throws {
    let cluster = try Cluster()
    let url = try cluster.url("sslmode=verify-full&sslrootcert=\(cluster.certificates.ca)")
    let leader = ZoneLeadership(url: url, zone: "hall", name: "a", logger: logger)
    try leader.migrateOnceTheServerAnswers()
    #expect(try leader.tryToBecomeActive() == 1)
    let store = try PostgresSessionStore(url: url, zone: "hall", term: 1, logger: logger)
    let row = SessionRow(screenID: "s1", focused: "r0c1", selected: ["r0c1"], text: [:])
    try store.commit([row])
    let again = try PostgresSessionStore(url: url, zone: "hall", term: 1, logger: logger)
    #expect(again.records["s1"] == row)
    // The lock's connection and the stores' connections: every one encrypted.
    #expect(try cluster.allConnectionsEncrypted())
    let status = try ZoneStatus.read(url: url, zone: "hall", logger: logger)
    #expect(status.schemaVersion == ZoneSchema.latest)
  }

  @Test("verify-full with a CA that did not sign the server's certificate is refused")
  func wrongCAIsRefused() throws {
    let cluster = try Cluster()
    let url = try cluster.url(
      "sslmode=verify-full&sslrootcert=\(cluster.certificates.otherCA)")
    let expected = SessionStoreError.unavailable(
      store: url.description, code: "",
      message:
        "TLS: the server's certificate failed verification: not signed by a CA in sslrootcert "
        + "\(cluster.certificates.otherCA), or expired (CERTIFICATE_VERIFY_FAILED)")
    #expect(throws: expected) {
      try ZoneSchema.migrate(PostgresLink(url: url, logger: logger), logger: logger)
    }
  }

  @Test("verify-full to an address the certificate does not name is refused; verify-ca is not")
  func wrongHostIsRefused() throws {
    let cluster = try Cluster()  // The certificate names localhost, not 127.0.0.1.
    let ca = cluster.certificates.ca
    let full = try cluster.url(host: "127.0.0.1", "sslmode=verify-full&sslrootcert=\(ca)")
    let expected = SessionStoreError.unavailable(
      store: full.description, code: "",
      message:
        "TLS: the server's certificate does not name 127.0.0.1 "
        + "(sslmode=verify-full: its subject alternative names must include the URL's host)")
    #expect(throws: expected) {
      try ZoneSchema.migrate(PostgresLink(url: full, logger: logger), logger: logger)
    }
    // verify-ca checks the chain only, as libpq.
    let chainOnly = try cluster.url(host: "127.0.0.1", "sslmode=verify-ca&sslrootcert=\(ca)")
    #expect(
      try ZoneSchema.migrate(PostgresLink(url: chainOnly, logger: logger), logger: logger)
        == Self.allMigrations)
  }

  @Test("verify-full to an address connects when the certificate names it (IP:), as deploy/zone")
  func addressInCertificate() throws {
    let cluster = try Cluster(names: "IP:127.0.0.1")
    let url = try cluster.url(
      host: "127.0.0.1", "sslmode=verify-full&sslrootcert=\(cluster.certificates.ca)")
    let link = PostgresLink(url: url, logger: logger)
    #expect(try ZoneSchema.migrate(link, logger: logger) == Self.allMigrations)
    #expect(try cluster.allConnectionsEncrypted())
  }

  @Test("require and the default (prefer) connect over TLS without a CA")
  func requireConnectsWithoutCA() throws {
    let cluster = try Cluster()
    for parameters in ["sslmode=require", "sslmode=prefer"] {
      let link = PostgresLink(url: try cluster.url(parameters), logger: logger)
      _ = try ZoneSchema.migrate(link, logger: logger)
      #expect(try cluster.allConnectionsEncrypted(), "\(parameters)")
      link.close()
    }
  }

  @Test("disable against a server that takes TLS only is refused by the server, clearly")
  func disableIsRefused() throws {
    let cluster = try Cluster()
    let url = try cluster.url(host: "127.0.0.1", "sslmode=disable")
    let expected = SessionStoreError.unavailable(
      store: url.description, code: "28000",
      message:
        #"pg_hba.conf rejects connection for host "127.0.0.1", user "tenfoot", database "postgres", no encryption"#
    )
    #expect(throws: expected) {
      try ZoneSchema.migrate(PostgresLink(url: url, logger: logger), logger: logger)
    }
  }

  @Test("require against a server without TLS is refused; prefer falls back to plain")
  func requireAgainstPlainServer() throws {
    let postgres = try TestPostgres()
    let base = "postgres://tenfoot@127.0.0.1:\(postgres.port)/postgres"
    let url = try PostgresURL(parsing: base + "?sslmode=require", environment: [:])
    let expected = SessionStoreError.unavailable(
      store: url.description, code: "",
      message: "the server does not offer TLS (sslmode=require)")
    #expect(throws: expected) {
      try ZoneSchema.migrate(PostgresLink(url: url, logger: logger), logger: logger)
    }
    let plain = try PostgresURL(parsing: base, environment: [:])
    #expect(
      try ZoneSchema.migrate(PostgresLink(url: plain, logger: logger), logger: logger)
        == Self.allMigrations)
  }
}
