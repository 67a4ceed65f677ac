import Foundation
import TestSupport
import Testing

/// Three network hosts inside this machine: Linux network namespaces joined by a bridge, each
/// with its own address and no shared loopback, so the processes can only meet over the
/// "network" as they would on separate machines. Needs root (CI runs as root).
final class NamespaceNetwork {
  /// The namespaces, by role.
  let broker: String
  let screen: String
  let remote: String
  /// The broker host's address.
  let brokerAddress = "10.77.0.1"

  init() throws {
    let tag = "tf\(getpid() % 100_000)"
    broker = tag + "b"
    screen = tag + "s"
    remote = tag + "r"
    do {
      try Self.ip(["netns", "add", broker])
      try Self.ip(["netns", "add", screen])
      try Self.ip(["netns", "add", remote])
      try Self.ip(["-n", broker, "link", "add", "br0", "type", "bridge"])
      try Self.ip(["-n", broker, "addr", "add", "\(brokerAddress)/24", "dev", "br0"])
      try Self.ip(["-n", broker, "link", "set", "br0", "up"])
      try Self.ip(["-n", broker, "link", "set", "lo", "up"])
      for (index, host) in [screen, remote].enumerated() {
        let outside = "v\(host)"
        try Self.ip(["link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", host])
        try Self.ip(["link", "set", outside, "netns", broker])
        try Self.ip(["-n", broker, "link", "set", outside, "master", "br0"])
        try Self.ip(["-n", broker, "link", "set", outside, "up"])
        try Self.ip(["-n", host, "addr", "add", "10.77.0.\(index + 2)/24", "dev", "eth0"])
        try Self.ip(["-n", host, "link", "set", "eth0", "up"])
        try Self.ip(["-n", host, "link", "set", "lo", "up"])
      }
    } catch {
      remove()
      throw error
    }
  }

  deinit { remove() }

  /// Deletes the namespaces (their veth ends go with them).
  func remove() {
    for name in [broker, screen, remote] { _ = try? Self.ip(["netns", "del", name]) }
  }

  /// The command line that runs `binary` inside namespace `host`.
  func exec(in host: String, _ binary: String) -> [String] {
    ["ip", "netns", "exec", host, TestEnvironment.binary(binary)]
  }

  @discardableResult
  static func ip(_ arguments: [String]) throws -> [String] {
    let process = try ChildProcess("/usr/bin/env", ["ip"] + arguments)
    let status = try process.waitForExit(timeout: 10)
    guard status == 0 else {
      throw ChildProcessError(
        description: "ip \(arguments.joined(separator: " ")) exited \(status): \(process.errors)")
    }
    return process.output
  }

  /// Why this machine cannot create network namespaces (it needs root and iproute2), or nil
  /// when it can. Probed once, by adding and deleting a namespace.
  static let unavailableBecause: String? = {
    guard getuid() == 0 else { return "not running as root" }
    let probe = "tfprobe\(getpid() % 100_000)"
    do {
      try ip(["netns", "add", probe])
    } catch {
      return "\(error)"
    }
    _ = try? ip(["netns", "del", probe])
    return nil
  }()

  /// `TENFOOT_REQUIRE_NETNS=1` (scripts/test sets it when it runs as root, as CI does): the
  /// namespace tests run and fail with the reason instead of being skipped.
  static let required = ProcessInfo.processInfo.environment["TENFOOT_REQUIRE_NETNS"] == "1"

  /// Whether the namespace tests run: namespaces work, or they are required.
  static var testsEnabled: Bool { unavailableBecause == nil || required }

  /// Throws the reason namespaces cannot be made (so a required test fails saying why).
  static func requireAvailable() throws {
    if let reason = unavailableBecause {
      throw ChildProcessError(
        description: "network namespaces are required (TENFOOT_REQUIRE_NETNS=1) but `ip netns` "
          + "cannot be used: \(reason)")
    }
  }
}

@Suite("Broker, screen and remote on separate network hosts", .serialized)
struct SeparateHostsTests {
  @Test(
    "pair over the network, then navigate over CURVE TCP between three namespaces",
    .enabled(if: NamespaceNetwork.testsEnabled, "needs root and iproute2 (network namespaces)"))
  func acrossNamespaces() throws {
    try NamespaceNetwork.requireAvailable()
    let network = try NamespaceNetwork()
    let directory = try TemporaryDirectory()
    let endpoints = [
      "--control", "tcp://\(network.brokerAddress):7700", "--state",
      "tcp://\(network.brokerAddress):7701",
    ]
    let environment = [
      "TENFOOT_RUNTIME_DIR": directory.path + "/run",
      "TENFOOT_STATE_DIR": directory.path + "/state",
    ]
    let dataDirectory = directory.path + "/broker"
    // The owner copies the screen's key to the broker, and the broker's key to the screen.
    let screenKey = try #require(
      SecureStack.run("tenfoot-screen", ["--print-key", "--state-dir", directory.path + "/screen"])
        .first)
    _ = try SecureStack.run(
      "tenfoot-broker",
      ["remotes", "add", "--data-dir", dataDirectory, "--name", "tv", "--key", screenKey])
    let brokerKey = try #require(
      SecureStack.run("tenfoot-broker", ["key", "--data-dir", dataDirectory]).first)
    // The one line screens and remotes take (README, "Across machines").
    let invite = try #require(
      SecureStack.run(
        "tenfoot-broker",
        ["invite", "--data-dir", dataDirectory, "--host", network.brokerAddress]
      ).first)
    #expect(invite.hasSuffix("@\(network.brokerAddress):7700"), "\(invite)")

    let brokerCommand = network.exec(in: network.broker, "tenfoot-broker")
    let broker = try ChildProcess(
      "/usr/bin/env", brokerCommand + endpoints + ["--data-dir", dataDirectory],
      environment: environment)
    let ready = try broker.waitForLine("broker ready") { $0.hasPrefix("tenfoot-broker ready") }
    #expect(ready.line.contains("pairing=tcp://\(network.brokerAddress):7702"), "\(ready.line)")

    let layout = try directory.write("grid.json", TestLayouts.gridJSON(rows: 3, columns: 3))
    let screen = try ChildProcess(
      "/usr/bin/env",
      network.exec(in: network.screen, "tenfoot-screen")
        + [
          "--layout", layout, "--renderer", "headless", "--state-dir", directory.path + "/screen",
          "--broker", invite,
        ],
      environment: environment)
    let first = try screen.waitForFrame(timeout: 15, "the screen's first frame") {
      $0.focused == "r0c0"
    }

    // Unpaired: refused by ZAP.
    let remoteState = ["--state-dir", directory.path + "/remote"]
    let unpaired = try ChildProcess(
      "/usr/bin/env",
      network.exec(in: network.remote, "tenfoot-remote")
        + ["press", "right", "--broker-key", brokerKey] + remoteState + endpoints,
      environment: environment)
    #expect(try unpaired.waitForExit(timeout: 15) == 1)
    #expect(unpaired.errors.joined().contains("not paired: run tenfoot-remote pair"))

    // Pair from the remote host with the PIN the screen host shows.
    let pinInput = Pipe()
    let pair = try ChildProcess(
      "/usr/bin/env",
      network.exec(in: network.remote, "tenfoot-remote")
        + ["pair", "--name", "phone", "--forget-broker", "--broker", invite] + remoteState,
      environment: environment, stdin: pinInput.fileHandleForReading)
    let prompt = try screen.waitForLine(from: first.index, timeout: 15, "the PIN on the screen") {
      $0.hasPrefix(#"{"pairing":{"#)
    }
    let pin = try #require(SecureStack.pin(in: prompt.line))
    pinInput.fileHandleForWriting.write(Data("\(pin)\n".utf8))
    try pinInput.fileHandleForWriting.close()
    #expect(try pair.waitForExit(timeout: 15) == 0, "pair: \(pair.errors)")

    let remote = try ChildProcess(
      "/usr/bin/env",
      network.exec(in: network.remote, "tenfoot-remote")
        + ["press", "right", "down", "select", "--broker", invite] + remoteState,
      environment: environment)
    #expect(try remote.waitForExit(timeout: 15) == 0, "remote: \(remote.errors)")
    #expect(
      remote.output.last == "select: highlighted r1c1; activated r1c1; r1c1 selected; focused r1c1")
    try screen.waitForFrame(from: first.index, "r1c1 focused on the screen host") {
      $0.focused == "r1c1" && $0.event?.contains("r1c1 selected") == true
    }

    // The broker is not on the remote's own host: its loopback has nothing listening.
    let local = try ChildProcess(
      "/usr/bin/env",
      network.exec(in: network.remote, "tenfoot-remote")
        + [
          "press", "up", "--control", "tcp://127.0.0.1:7700", "--state", "tcp://127.0.0.1:7701",
          "--insecure", "--timeout", "1",
        ],
      environment: environment)
    #expect(try local.waitForExit(timeout: 10) != 0)
    #expect(local.errors.joined().contains("nothing is listening at tcp://127.0.0.1:7700"))
  }
}
