import ArgumentParser
import Foundation
import TenFootPostgres

/// Where the broker keeps its sessions, and the zone it serves.
struct StoreOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Session store: postgres://USER@HOST:PORT/DB shared by the brokers of a zone.",
      discussion: """
        Default: $TENFOOT_STORE, else the data directory's SQLite file (one broker, nothing \
        to set up). The password, if any, may come from $PGPASSWORD. TLS: \
        ?sslmode=verify-full&sslrootcert=/path/ca.pem (see docs/zone-tls.md).
        """, valueName: "url"))
  var store: String?

  @Option(
    help: ArgumentHelp(
      "The zone this broker serves: the brokers of a zone share one store, one is active.",
      valueName: "name"))
  var zone = "default"

  @Option(
    help: ArgumentHelp(
      "This broker's name in its zone (shown by status). Default: host name and process id.",
      valueName: "name"))
  var brokerName: String?

  /// The PostgreSQL store, or nil for the embedded SQLite store.
  func postgres() throws -> PostgresURL? {
    guard let text = store ?? ProcessInfo.processInfo.environment["TENFOOT_STORE"], !text.isEmpty
    else { return nil }
    let url: PostgresURL
    do {
      url = try PostgresURL(parsing: text)
    } catch {
      throw ValidationError("--store: \(error) (see docs/zone-tls.md for sslmode)")
    }
    if store != nil, URLComponents(string: text)?.password != nil {
      // Anyone on the host can read a process's arguments (ps): the password belongs in
      // PGPASSWORD (an environment file of mode 0600) instead.
      FileHandle.standardError.write(
        Data("warning: --store holds a password, which ps shows: set PGPASSWORD instead\n".utf8))
    }
    guard !zone.isEmpty, zone.utf8.count <= 64, zone.allSatisfy({ $0.isASCII && !$0.isWhitespace })
    else { throw ValidationError("--zone must be 1 to 64 printable ASCII characters") }
    return url
  }

  /// This broker's name in the zone.
  var name: String {
    brokerName ?? "\(ProcessInfo.processInfo.hostName)/\(getpid())"
  }
}
