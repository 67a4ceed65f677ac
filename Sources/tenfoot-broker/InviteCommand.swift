import ArgumentParser
import Foundation
import TenFootCLI
import TenFootProtocol
import ZeroMQ

#if canImport(Glibc)
  import Glibc
#endif

/// `tenfoot-broker invite`: the one line a screen or remote needs (`--broker` or
/// `$TENFOOT_BROKER`), with the endpoints and the broker's key, safe to paste into any shell.
struct InviteCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "invite",
    abstract: "Print the connection string screens and remotes take (--broker tenfoot://…).")

  @OptionGroup var data: DataOptions

  @Option(
    help: ArgumentHelp(
      "The host name or address others reach the broker at (repeat for a zone's brokers).",
      discussion: "Default: this machine's first non-loopback IPv4 address, else its host name.",
      valueName: "host"))
  var host: [String] = []

  @Option(help: "The control port the broker binds (state and pairing: the next two).")
  var port = 7700

  @Option(help: "The state port, when it is not the control port + 1.")
  var statePort: Int?

  @Option(help: "The pairing port, when it is not the control port + 2.")
  var pairingPort: Int?

  func validate() throws {
    for (name, value) in [
      ("--port", port), ("--state-port", statePort), ("--pairing-port", pairingPort),
    ]
    where !(1...65_535).contains(value ?? 1) {
      throw ValidationError("\(name) must be between 1 and 65535")
    }
    for host in host where host.isEmpty || host.contains(where: { "/?&=,@ ".contains($0) }) {
      throw ValidationError("--host: \"\(host)\" is not a host name or address")
    }
  }

  func run() throws {
    guard let key = Z85.decode(try data.keyPair().publicKey), key.count == 32 else {
      throw CLIError("the broker's key file holds no CURVE key")
    }
    let hosts = host.isEmpty ? [Self.defaultHost()] : host
    var connection = ConnectionString(brokers: hosts.map { ($0, port) }, key: key)
    connection.statePort = statePort
    connection.pairingPort = pairingPort
    print(connection)
  }

  /// The first non-loopback IPv4 address of this machine, else its host name.
  static func defaultHost() -> String {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return ProcessInfo.processInfo.hostName }
    defer { freeifaddrs(list) }
    var next = list
    while let entry = next {
      defer { next = entry.pointee.ifa_next }
      guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET)
      else { continue }
      var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      let found = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
        var raw = ipv4.pointee.sin_addr
        return inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil
      }
      let name = String(
        decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if found, !name.hasPrefix("127.") { return name }
    }
    return ProcessInfo.processInfo.hostName
  }
}
