import Foundation
import TestSupport

/// Throw-away certificates made with `openssl` for the TLS tests: a CA, a server certificate
/// it signs for the given subject alternative names, and a second CA that signed nothing.
struct TestCertificates {
  /// The CA that signed the server's certificate (PEM).
  var ca: String
  /// A CA that did not sign it (PEM).
  var otherCA: String
  /// The server's certificate (PEM).
  var serverCertificate: String
  /// The server's private key (PEM, mode 0600).
  var serverKey: String

  /// Makes the files in `directory` (elliptic-curve keys: fast, a second or so in all), the
  /// server's certificate naming `names` (`DNS:localhost`, `IP:127.0.0.1`) and nothing else.
  static func make(in directory: String, names: String = "DNS:localhost") throws
    -> TestCertificates
  {
    let made = TestCertificates(
      ca: directory + "/ca.pem", otherCA: directory + "/other-ca.pem",
      serverCertificate: directory + "/server.crt", serverKey: directory + "/server.key")
    let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for (name, file) in [("TenFoot test CA", made.ca), ("TenFoot other CA", made.otherCA)] {
      try openssl(
        ["req", "-x509"] + key
          + [
            "-keyout", file + ".key", "-out", file, "-days", "2", "-subj", "/CN=\(name)",
          ])
    }
    try openssl(
      ["req"] + key
        + [
          "-keyout", made.serverKey, "-out", directory + "/server.csr", "-subj",
          "/CN=TenFoot test store",
        ])
    let extensions = directory + "/server.ext"
    try Data(
      """
      basicConstraints=CA:FALSE
      keyUsage=digitalSignature,keyEncipherment
      extendedKeyUsage=serverAuth
      subjectAltName=\(names)

      """.utf8
    ).write(to: URL(fileURLWithPath: extensions))
    try openssl([
      "x509", "-req", "-in", directory + "/server.csr", "-CA", made.ca, "-CAkey", made.ca + ".key",
      "-CAcreateserial", "-out", made.serverCertificate, "-days", "2", "-extfile", extensions,
    ])
    guard chmod(made.serverKey, 0o600) == 0 else {
      throw ChildProcessError(description: "chmod \(made.serverKey): errno \(errno)")
    }
    return made
  }

  /// Runs `openssl` with `arguments`, at most 30 s; throws with its output if it fails.
  private static func openssl(_ arguments: [String]) throws {
    let process = try ChildProcess("/usr/bin/openssl", arguments)
    let status = try process.waitForExit(timeout: 30)
    guard status == 0, !process.endedBySignal else {
      throw ChildProcessError(
        description:
          "openssl \(arguments.joined(separator: " ")) failed (\(status)):\n"
          + process.errors.joined(separator: "\n"))
    }
  }
}
