import ArgumentParser
import Foundation
import Logging
import TenFootCLI
import TenFootPostgres
import TerminalUI

/// `tenfoot-broker status`: the zone, its active broker, term, standbys and the store's health.
struct StatusCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "Print a zone's active broker, term, standby brokers and the store's health.")

  @OptionGroup var storeOptions: StoreOptions
  @OptionGroup var logging: LoggingOptions

  func run() throws {
    let logger = logging.bootstrap(label: "tenfoot.broker")
    guard let url = try storeOptions.postgres() else {
      throw ValidationError(
        "status needs --store postgres://… (or TENFOOT_STORE): a single broker on SQLite has no zone"
      )
    }
    let status: ZoneStatus
    do {
      status = try ZoneStatus.read(url: url, zone: storeOptions.zone, logger: logger)
    } catch {
      print("store: \(url) UNAVAILABLE (\(TerminalText.printable("\(error)")))")
      throw ExitCode(2)
    }
    print(Self.render(status, url: url), terminator: "")
  }

  /// The status as lines of text (names escaped: they come from the store).
  static func render(_ status: ZoneStatus, url: PostgresURL) -> String {
    var lines = [
      "zone: \(TerminalText.printable(status.zone))",
      "store: \(url) healthy (PostgreSQL \(TerminalText.printable(status.server)), schema \(status.schemaVersion), round trip \(String(format: "%.2f", status.roundTripMilliseconds)) ms)",
      "term: \(status.term)",
    ]
    if let active = status.active {
      let renewed = status.renewedSecondsAgo.map { String(format: "%.1f s ago", $0) } ?? "never"
      lines.append(
        "active: \(TerminalText.printable(active)) (lock \(status.lockHeld ? "held" : "FREE"), lease renewed \(renewed))"
      )
    } else {
      lines.append("active: none")
    }
    let standbys = status.brokers.filter { $0.role == "standby" }.map {
      "\(TerminalText.printable($0.name)) (seen \(String(format: "%.1f", $0.secondsAgo)) s ago)"
    }
    lines.append("standby: " + (standbys.isEmpty ? "none" : standbys.joined(separator: ", ")))
    lines.append("sessions: \(status.sessions)")
    return lines.joined(separator: "\n") + "\n"
  }
}

/// `tenfoot-broker store migrate`: applies the zone store's missing schema migrations.
struct StoreCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "store", abstract: "Manage the zone store (PostgreSQL).",
    subcommands: [Migrate.self])

  struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Apply the store's missing schema migrations (the broker also does at start).")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var logging: LoggingOptions
    @OptionGroup var data: DataOptions

    @Flag(
      help: """
        Also copy the data directory's allow-list file (paired remotes, screens added by key)         into the zone, for a broker moving from SQLite to a zone.
        """)
    var importAllowList = false

    func run() throws {
      let logger = logging.bootstrap(label: "tenfoot.broker")
      guard let url = try storeOptions.postgres() else {
        throw ValidationError("store migrate needs --store postgres://… (or TENFOOT_STORE)")
      }
      let link = PostgresLink(url: url, logger: logger)
      do {
        let applied = try ZoneSchema.migrate(link, logger: logger)
        print(
          applied.isEmpty
            ? "store \(url): schema \(ZoneSchema.latest), up to date"
            : "store \(url): applied \(applied.map(String.init).joined(separator: ", ")); schema \(ZoneSchema.latest)"
        )
      } catch {
        throw CLIError("cannot migrate the store", cause: error)
      }
      if importAllowList { try importPeers(url: url, logger: logger) }
    }

    /// Adds every peer of the data directory's allow-list to the zone's.
    private func importPeers(url: PostgresURL, logger: Logger) throws {
      let file = try data.allowList().list
      let zone = try PostgresAllowListStore(
        link: PostgresLink(url: url, logger: logger), zone: storeOptions.zone, term: nil,
        logger: logger)
      try zone.modify { list in
        for entry in file.entries { list.allow(entry) }
      }
      print(
        "zone \(storeOptions.zone): \(file.entries.count) peers imported from the allow-list file")
    }
  }
}
