import ArgumentParser
import BrokerCore
import BrokerDomain
import Foundation
import Logging
import TenFootCLI
import TenFootPostgres
import TenFootProtocol
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
      throw CLIError(error)
    }
  }

  func keyPair() throws -> CurveKeyPair {
    let path = try directory() + "/broker-key.json"
    do {
      return try KeyFile.loadOrCreate(path)
    } catch {
      throw CLIError(error)
    }
  }

  func allowList() throws -> AllowListStore {
    do {
      return try AllowListStore(path: try directory() + "/allow-list.json")
    } catch {
      throw CLIError(error)
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
      throw CLIError("cannot read the zone's allow-list", cause: error)
    }
  }
}

/// `tenfoot-broker key`
struct KeyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "key", abstract: "Print the broker's CURVE public key (created on first use).")

  @OptionGroup var data: DataOptions

  @Flag(
    help:
      "Print the key in base64url (43 characters no shell needs quoted; --broker-key takes it too)."
  )
  var base64url = false

  func run() throws {
    let key = try data.keyPair().publicKey
    guard base64url else {
      print(key)
      return
    }
    guard let bytes = Z85.decode(key) else {
      throw CLIError("the broker's key file holds no CURVE key")
    }
    print(Base64URL.encode(bytes))
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
        print("\(entry.id)  \(entry.role)  \(name)  \(entry.publicKey)\(Self.screens(entry))")
      }
      // The zone's store keeps revoked peers too.
      for entry in (store as? PostgresAllowListStore)?.revoked ?? [] {
        let name = TerminalText.printable(entry.name)
        print("\(entry.id)  \(entry.role)  \(name)  \(entry.publicKey)  (revoked)")
      }
    }

    /// The screens an entry is bound to, as `list` prints them.
    static func screens(_ entry: AllowList.Entry) -> String {
      let ids = (entry.screens ?? []).map { TerminalText.printable($0) }.joined(separator: ",")
      switch (entry.role, entry.screens) {
      case (.remote, nil): return "  screens=all"
      case (.app, nil), (.screen, nil): return "  screens=none"
      default: return "  screens=\(ids)"
      }
    }
  }

  struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Remove a peer; a running broker refuses it at once and cuts it off the state socket.")
    @OptionGroup var data: DataOptions
    @OptionGroup var storeOptions: StoreOptions
    @Argument(
      help:
        "The id from 'remotes list', the whole public key, or a hex prefix of the key that no other peer's key shares."
    ) var id: String

    func run() throws {
      let store = try data.allowList(storeOptions)
      switch try store.modify({ $0.revoke(id) }) {
      case .one(let removed):
        print("revoked \(removed.id) (\(TerminalText.printable(removed.name)))")
      case .none: throw CLIError("no allowed peer has id or key \(id)")
      case .ambiguous(let ids):
        throw CLIError(
          "\(id) matches several peers (\(ids.joined(separator: ", "))): give more of the key")
      }
    }
  }

  struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Allow a key copied from a screen ('tenfoot-screen --print-key') or remote.")
    @OptionGroup var data: DataOptions
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "A name for people.") var name: String
    @Option(help: "What the peer is: screen, remote or app (docs/security.md, \"Roles\").")
    var role = AllowList.Role.screen
    @Option(
      name: .customLong("screen"),
      help:
        "A screen id the peer is bound to (repeatable): a screen key owns it, a remote may use only the listed screens, an app may patch and focus them."
    )
    var screens: [String] = []
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
        publicKey: publicKey, name: name, role: role, added: Date().timeIntervalSince1970,
        screens: screens.isEmpty ? nil : screens)
      let store = try data.allowList(storeOptions)
      let owners = store.list.screenOwners
      for screen in screens where role == .screen {
        if let owner = owners[screen], owner != entry.keyHex {
          throw CLIError("screen \(screen) is already owned by another screen key")
        }
      }
      let id = try store.modify { list in
        list.allow(entry)
        return list.entry(publicKey: publicKey)?.id ?? entry.id
      }
      print("allowed \(id) (\(name), \(role))")
    }
  }
}

extension AllowList.Role: ExpressibleByArgument {}

/// `tenfoot-broker pairing open|status`
struct Pairing: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Pairing's wrong-PIN guard: see it, or open pairing again after it closed.",
    subcommands: [Status.self, Open.self], defaultSubcommand: Status.self)

  struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print the wrong-PIN counts and whether pairing is closed.")
    @OptionGroup var data: DataOptions

    func run() throws {
      let file = PairingGuardFile(directory: try data.directory())
      let state: PairingGuard
      do {
        state = try file.loadIfChanged() ?? PairingGuard()
      } catch {
        throw CLIError(error)
      }
      print(state.closed ? "pairing: closed" : "pairing: open")
      print("wrong PINs: \(state.totalFailures) of \(PairingGuard.totalLimit)")
      for (address, count) in state.byAddress.sorted(by: { $0.key < $1.key }) {
        print("  \(TerminalText.printable(address)): \(count) of \(PairingGuard.addressLimit)")
      }
    }
  }

  struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Open pairing again and clear the wrong-PIN counts; a running broker takes it at its next pairing request."
    )
    @OptionGroup var data: DataOptions

    func run() throws {
      let file = PairingGuardFile(directory: try data.directory())
      do {
        try file.save(.open)
      } catch {
        throw CLIError(error)
      }
      print("pairing: open")
    }
  }
}
