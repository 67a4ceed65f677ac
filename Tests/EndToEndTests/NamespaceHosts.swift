import Foundation
import TestSupport
import Testing

/// Hosts on one network segment inside this machine: a hub namespace holding a bridge (the
/// switch) and one network namespace per host, each joined to the bridge by a veth pair (`eth0`
/// inside the host, `v<namespace>` in the hub), with its own address on 10.78.0.0/24 and its
/// own loopback. Cutting a host off sets its `eth0` down inside its namespace, as if its cable
/// were pulled: its processes keep running and its connections hang until a timeout notices.
/// Needs root (CI runs as root); see `NamespaceNetwork` for the probe and TENFOOT_REQUIRE_NETNS.
final class NamespaceHosts {
  /// The network, for a PostgreSQL `pg_hba.conf` rule.
  static let network = "10.78.0.0/24"
  private let hub: String
  private let tag: String
  /// The hosts' names, in the order given.
  let hosts: [String]

  /// One namespace per name in `hosts` (short names: they become interface names); `prefix`
  /// (two letters) tells apart the suites that may run at once in one test process.
  init(_ hosts: [String], prefix: String = "tn") throws {
    // Not SeparateHostsTests' "tf<pid>": both run in one test process, maybe at once.
    tag = "\(prefix)\(getpid() % 100_000)"
    hub = tag + "hub"
    self.hosts = hosts
    do {
      try NamespaceNetwork.ip(["netns", "add", hub])
      try NamespaceNetwork.ip(["-n", hub, "link", "add", "br0", "type", "bridge"])
      try NamespaceNetwork.ip(["-n", hub, "link", "set", "br0", "up"])
      for host in hosts {
        let name = namespace(host)
        let outside = "v" + name
        try NamespaceNetwork.ip(["netns", "add", name])
        try NamespaceNetwork.ip([
          "link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", name,
        ])
        try NamespaceNetwork.ip(["link", "set", outside, "netns", hub])
        try NamespaceNetwork.ip(["-n", hub, "link", "set", outside, "master", "br0"])
        try NamespaceNetwork.ip(["-n", hub, "link", "set", outside, "up"])
        try NamespaceNetwork.ip(["-n", name, "addr", "add", address(host) + "/24", "dev", "eth0"])
        try NamespaceNetwork.ip(["-n", name, "link", "set", "eth0", "up"])
        try NamespaceNetwork.ip(["-n", name, "link", "set", "lo", "up"])
      }
    } catch {
      remove()
      throw error
    }
  }

  deinit { remove() }

  /// Deletes the namespaces (their veth ends go with them).
  func remove() {
    for name in hosts.map(namespace) + [hub] {
      _ = try? NamespaceNetwork.ip(["netns", "del", name])
    }
  }

  /// The namespace of `host`.
  func namespace(_ host: String) -> String { tag + host }

  /// The address of `host` (10.78.0.1 for the first, and so on).
  func address(_ host: String) -> String {
    "10.78.0.\((hosts.firstIndex(of: host) ?? 250) + 1)"
  }

  /// The command line that runs TenFoot's `binary` on `host` (`ip netns exec` execs it, so the
  /// child's pid is the program's own).
  func exec(on host: String, _ binary: String) -> [String] {
    ["/usr/sbin/ip", "netns", "exec", namespace(host), TestEnvironment.binary(binary)]
  }

  /// Starts TenFoot's `binary` on `host`.
  func start(
    on host: String, _ binary: String, _ arguments: [String], environment: [String: String],
    stdin: FileHandle? = nil
  ) throws -> ChildProcess {
    let command = exec(on: host, binary)
    return try ChildProcess(
      command[0], Array(command.dropFirst()) + arguments, environment: environment, stdin: stdin)
  }

  /// Takes `host` off the network: its `eth0` down.
  func cut(_ host: String) throws {
    try NamespaceNetwork.ip(["-n", namespace(host), "link", "set", "eth0", "down"])
  }

  /// Puts `host` back on the network.
  func reconnect(_ host: String) throws {
    try NamespaceNetwork.ip(["-n", namespace(host), "link", "set", "eth0", "up"])
  }
}
