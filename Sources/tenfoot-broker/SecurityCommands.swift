import ArgumentParser
import BrokerCore
import Foundation
import Logging
import TenFootCLI
import TenFootPostgres
import TenFootSecurity
import TerminalUI
import ZeroMQ

/// The broker's data directory flag.
struct DataOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Directory for the key pair, allow-list and state (mode 0700).",
      discussion:
        "Default: $TENFOOT_STATE_DIR/broker, else /var/lib/tenfoot/broker for root, else $XDG_STATE_HOME/tenfoot/broker.",
      valueName: "dir"), completion: .directory)
  var dataDir: String?

  func directory() throws -> String {
    do {
      return try StateDirectory.prepare(explicit: dataDir, program: "broker")
    } catch {
      throw ValidationError("\(error)")
    }
  }

  func keyPair() throws -> CurveKeyPair {
    let path = try directory() + "/broker-key.json"
    do {
      return try KeyFile.loadOrCreate(path)
    } catch {
      throw ValidationError("\(error)")
    }
  }

  func allowList() throws -> AllowListStore {
    do {
      return try AllowListStore(path: try directory() + "/allow-list.json")
    } catch {
      throw ValidationError("\(error)")
    }
  }

  /// The allow-list: the zone's in PostgreSQL with `--store postgres://…` (an operator's
  /// writes, not fenced), else the data directory's file.
  func allowList(_ store: StoreOptions) throws -> any AllowListSource {
    guard let url = try store.postgres() else { return try allowList() }
    let logger = Logger(label: "tenfoot.broker")
    let link = PostgresLink(url: url, logger: logger)
    do {
      try ZoneSchema.migrate(link, logger: logger)
      return try PostgresAllowListStore(link: link, zone: store.zone, term: nil, logger: logger)
    } catch {
      throw CLIError("cannot read the zone's allow-list: \(error)")
    }
  }
}

/// `tenfoot-broker key`
struct KeyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "key", abstract: "Print the broker's CURVE public key (created on first use).")

  @OptionGroup var data: DataOptions

  func run() throws {
    print(try data.keyPair().publicKey)
  }
}

/// `tenfoot-broker remotes list|revoke|add`
struct Remotes: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "The allow-list: paired remotes and screens allowed by key.",
    subcommands: [List.self, Revoke.self, Add.self], defaultSubcommand: List.self)

  @OptionGroup var data: DataOptions

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List allowed peers.")
    @OptionGroup var data: DataOptions
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
      let store = try data.allowList(storeOptions)
      if store.list.entries.isEmpty { print("no paired remotes or screens") }
      for entry in store.list.entries {
        // A name edited into the file by hand may hold anything: printed through the filter.
        let name = TerminalText.printable(entry.name)
        print("\(entry.id)  \(entry.role)  \(name)  \(entry.publicKey)")
      }
      // The zone's store keeps revoked peers too.
      for entry in (store as? PostgresAllowListStore)?.revoked ?? [] {
        let name = TerminalText.printable(entry.name)
        print("\(entry.id)  \(entry.role)  \(name)  \(entry.publicKey)  (revoked)")
      }
    }
  }

  struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Remove a peer; a running broker refuses it at once and cuts it off the state socket.")
    @OptionGroup var data: DataOptions
    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The id from 'remotes list' (or the public key).") var id: String

    func run() throws {
      let store = try data.allowList(storeOptions)
      let removed = try store.modify { $0.revoke(id) }
      guard let removed else { throw ValidationError("no allowed peer has id \(id)") }
      print("revoked \(removed.id) (\(TerminalText.printable(removed.name)))")
    }
  }

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Allow a key copied from a screen ('tenfoot-screen --print-key') or remote.")
    @OptionGroup var data: DataOptions
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "A name for people.") var name: String
    @Option(help: "What the peer is.") var role = AllowList.Role.screen
    // Unconditional: a Z85 key may start with "-", which would otherwise look like a flag.
    @Option(
      name: .customLong("key"), parsing: .unconditional,
      help: "The peer's CURVE public key (Z85, 40 characters).")
    var publicKey: String

    func validate() throws {
      if let problem = PairingName.problem(name) { throw ValidationError("--name: \(problem)") }
      guard Z85.decode(publicKey)?.count == 32 else {
        throw ValidationError("not a 40-character Z85 CURVE public key: \(publicKey)")
      }
    }

    func run() throws {
      let entry = AllowList.Entry(
        publicKey: publicKey, name: name, role: role, added: Date().timeIntervalSince1970)
      try data.allowList(storeOptions).modify { $0.allow(entry) }
      print("allowed \(entry.id) (\(name), \(role))")
    }
  }
}

extension AllowList.Role: ExpressibleByArgument {}
