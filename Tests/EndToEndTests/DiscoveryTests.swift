import Foundation
import TestSupport
import Testing

/// Two network hosts (namespaces joined by a veth pair), each with its own D-Bus system bus
/// and avahi-daemon, so DNS-SD answers really cross the "network" as multicast mDNS. Needs
/// root, iproute2, dbus-daemon and avahi-daemon (scripts/bootstrap installs them).
///
/// Each avahi-daemon runs in its own mount namespace with a private tmpfs over /run (its pid
/// file and socket live in /run/avahi-daemon and would collide), as root (--no-drop-root,
/// --no-chroot), on a bus it reaches through DBUS_SYSTEM_BUS_ADDRESS, with its own host name.
final class AvahiHosts {
  let broker: String
  let remote: String
  let brokerAddress = "10.79.0.1"
  let directory: TemporaryDirectory
  private var daemons: [ChildProcess] = []

  init() throws {
    let tag = "tfd\(getpid() % 100_000)"
    broker = tag + "b"
    remote = tag + "r"
    directory = try TemporaryDirectory()
    do {
      try NamespaceNetwork.ip(["netns", "add", broker])
      try NamespaceNetwork.ip(["netns", "add", remote])
      try NamespaceNetwork.ip([
        "-n", broker, "link", "add", "eth0", "type", "veth", "peer", "name", "eth0", "netns",
        remote,
      ])
      for (index, host) in [broker, remote].enumerated() {
        try NamespaceNetwork.ip([
          "-n", host, "addr", "add", "10.79.0.\(index + 1)/24", "dev", "eth0",
        ])
        try NamespaceNetwork.ip(["-n", host, "link", "set", "eth0", "up"])
        try NamespaceNetwork.ip(["-n", host, "link", "set", "lo", "up"])
      }
      try startDaemons(in: broker, hostName: "tfbroker")
      try startDaemons(in: remote, hostName: "tfremote")
    } catch {
      remove()
      throw error
    }
  }

  deinit { remove() }

  /// The bus socket of `host`'s D-Bus daemon.
  func busPath(_ host: String) -> String { directory.path + "/\(host).bus" }

  /// The environment a program in `host` needs to reach that host's avahi-daemon.
  func environment(_ host: String) -> [String: String] {
    [
      "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(busPath(host))",
      "TENFOOT_RUNTIME_DIR": directory.path + "/run-\(host)",
      "TENFOOT_STATE_DIR": directory.path + "/state-\(host)",
    ]
  }

  /// The command line that runs `binary` inside namespace `host`.
  func exec(in host: String, _ binary: String) -> [String] {
    ["ip", "netns", "exec", host, TestEnvironment.binary(binary)]
  }

  private func startDaemons(in host: String, hostName: String) throws {
    // A permissive system bus: only this test's root processes can reach its socket.
    let busConfig = try directory.write(
      "\(host)-bus.conf",
      """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>system</type>
        <listen>unix:path=\(busPath(host))</listen>
        <auth>EXTERNAL</auth>
        <policy context="default">
          <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
        </policy>
      </busconfig>
      """)
    let bus = try ChildProcess(
      "/usr/bin/env",
      [
        "ip", "netns", "exec", host, "dbus-daemon", "--config-file=\(busConfig)", "--nofork",
        "--nopidfile", "--print-address",
      ])
    daemons.append(bus)
    try bus.waitForLine(timeout: 20, "the D-Bus daemon's address in \(host)") {
      $0.hasPrefix("unix:path=")
    }
    let avahiConfig = try directory.write(
      "\(host)-avahi.conf",
      """
      [server]
      host-name=\(hostName)
      use-ipv4=yes
      use-ipv6=no
      allow-interfaces=eth0
      enable-dbus=yes
      [wide-area]
      enable-wide-area=no
      [publish]
      publish-hinfo=no
      publish-workstation=no
      """)
    let avahi = try ChildProcess(
      "/usr/bin/env",
      [
        "ip", "netns", "exec", host, "unshare", "-m", "sh", "-c",
        "mount -t tmpfs tmpfs /run && exec avahi-daemon -f \(avahiConfig) --no-drop-root "
          + "--no-chroot --no-rlimits",
      ],
      environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(busPath(host))"])
    daemons.append(avahi)
    try avahi.waitForErrorLine(timeout: 20, "avahi-daemon's startup in \(host)") {
      $0.hasPrefix("Server startup complete")
    }
  }

  /// Stops the daemons and deletes the namespaces (the veth pair goes with them).
  func remove() {
    for daemon in daemons.reversed() {
      daemon.signal(SIGTERM)
      _ = try? daemon.waitForExit(timeout: 5)
      daemon.kill()
    }
    daemons = []
    for name in [broker, remote] { _ = try? NamespaceNetwork.ip(["netns", "del", name]) }
  }

  /// Whether the test runs: as the other namespace tests (root and iproute2, or required
  /// with TENFOOT_REQUIRE_NETNS=1, as scripts/test does for root).
  static var testsEnabled: Bool { NamespaceNetwork.testsEnabled }

  /// Throws why the hosts cannot be made (so a required test fails saying why).
  static func requireAvailable() throws {
    try NamespaceNetwork.requireAvailable()
    for tool in ["/usr/bin/dbus-daemon", "/usr/sbin/avahi-daemon", "/usr/bin/unshare"]
    where !FileManager.default.isExecutableFile(atPath: tool) {
      throw ChildProcessError(description: "\(tool) is missing: run scripts/bootstrap")
    }
  }
}

@Suite("Discovery: brokers announced and found by name with DNS-SD (Avahi)", .serialized)
struct DiscoveryTests {
  static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  @Test(
    "a remote on another host finds the broker by name, pairs over CURVE and presses",
    .enabled(
      if: AvahiHosts.testsEnabled,
      "needs root and iproute2 (network namespaces)"))
  func findAndPairAcrossNamespaces() throws {
    try AvahiHosts.requireAvailable()
    let hosts = try AvahiHosts()
    let directory = hosts.directory
    let brokerData = directory.path + "/broker"
    let screenState = ["--state-dir", directory.path + "/screen"]
    let remoteState = ["--state-dir", directory.path + "/remote"]
    let screenKey = try #require(
      SecureStack.run("tenfoot-screen", ["--print-key"] + screenState).first)
    _ = try SecureStack.run(
      "tenfoot-broker",
      ["remotes", "add", "--data-dir", brokerData, "--name", "tv", "--key", screenKey])
    let brokerKey = try #require(
      SecureStack.run("tenfoot-broker", ["key", "--data-dir", brokerData]).first)

    let broker = try ChildProcess(
      "/usr/bin/env",
      hosts.exec(in: hosts.broker, "tenfoot-broker")
        + [
          "--control", "tcp://0.0.0.0:7700", "--state", "tcp://0.0.0.0:7701", "--data-dir",
          brokerData, "--name", "Living room",
        ],
      environment: hosts.environment(hosts.broker))
    try broker.waitForLine(timeout: 20, "broker ready") { $0.hasPrefix("tenfoot-broker ready") }
    let announced = try broker.waitForErrorLine(timeout: 20, "the mDNS announcement") {
      $0.contains("announced on the local network")
    }
    #expect(announced.contains("Living room"), "\(announced)")

    // The screen, on the broker's host, finds its broker by name too.
    let layout = try directory.write("grid.json", TestLayouts.gridJSON(rows: 3, columns: 3))
    let screen = try ChildProcess(
      "/usr/bin/env",
      hosts.exec(in: hosts.broker, "tenfoot-screen")
        + [
          "--layout", layout, "--renderer", "headless", "--broker", "Living room",
          "--broker-key", brokerKey,
        ] + screenState,
      environment: hosts.environment(hosts.broker))
    let first = try screen.waitForFrame(timeout: 20, "the screen's first frame") {
      $0.focused == "r0c0"
    }

    // scan from the other host: the broker, its address and fingerprint, not paired yet.
    let scanStart = ContinuousClock.now
    let scan = try ChildProcess(
      "/usr/bin/env", hosts.exec(in: hosts.remote, "tenfoot-remote") + ["scan"] + remoteState,
      environment: hosts.environment(hosts.remote))
    #expect(try scan.waitForExit(timeout: 20) == 0, "scan: \(scan.errors)")
    let scanSeconds = Self.seconds(since: scanStart)
    let listed = try #require(scan.output.first { $0.hasPrefix("Living room") }, "\(scan.output)")
    #expect(listed.contains(hosts.brokerAddress), "\(listed)")
    #expect(listed.contains("not paired"), "\(listed)")
    let shownFingerprint = try #require(
      listed.split(separator: " ").first { $0.hasPrefix("fingerprint=") })
    // scan's own figure: browsing ended by itself (the network answered) before its 3 s wait.
    let summary = try #require(scan.errors.last { $0.hasPrefix("scan: ") }, "\(scan.errors)")
    let browseMilliseconds = try #require(
      summary.split(separator: " ").dropLast().last.flatMap { Int($0) }, "\(summary)")
    print(
      "discovery: scan browsed \(browseMilliseconds) ms; the whole scan process took "
        + String(format: "%.3f", scanSeconds) + " s")
    #expect(browseMilliseconds < 3000, "\(summary)")

    // Pair by name: the PIN the screen shows, over the announced pairing port.
    let pinInput = Pipe()
    let pairStart = ContinuousClock.now
    let pair = try ChildProcess(
      "/usr/bin/env",
      hosts.exec(in: hosts.remote, "tenfoot-remote")
        + ["pair", "--name", "phone", "--broker", "Living room"] + remoteState,
      environment: hosts.environment(hosts.remote), stdin: pinInput.fileHandleForReading)
    let prompt = try screen.waitForLine(from: first.index, timeout: 20, "the PIN on the screen") {
      $0.hasPrefix(#"{"pairing":{"#)
    }
    let pinShown = Self.seconds(since: pairStart)
    let pin = try #require(SecureStack.pin(in: prompt.line))
    #expect(prompt.line.contains(String(shownFingerprint.dropFirst("fingerprint=".count))))
    pinInput.fileHandleForWriting.write(Data("\(pin)\n".utf8))
    try pinInput.fileHandleForWriting.close()
    #expect(try pair.waitForExit(timeout: 20) == 0, "pair: \(pair.errors)")
    let pairSeconds = Self.seconds(since: pairStart)
    #expect(
      pair.output.last?.contains("on the broker at tcp://\(hosts.brokerAddress):7700") == true,
      "\(pair.output)")
    print(
      "discovery: pair --broker showed the PIN after \(String(format: "%.3f", pinShown)) s, "
        + "paired after \(String(format: "%.3f", pairSeconds)) s (PIN typed at once)")

    // Press by name over CURVE.
    let pressStart = ContinuousClock.now
    let press = try ChildProcess(
      "/usr/bin/env",
      hosts.exec(in: hosts.remote, "tenfoot-remote")
        + ["press", "right", "--broker", "Living room"] + remoteState,
      environment: hosts.environment(hosts.remote))
    #expect(try press.waitForExit(timeout: 20) == 0, "press: \(press.errors)")
    let pressSeconds = Self.seconds(since: pressStart)
    #expect(press.output.last?.contains("focused r0c1") == true, "\(press.output)")
    try screen.waitForFrame(from: first.index, timeout: 20, "r0c1 focused on the screen") {
      $0.focused == "r0c1"
    }
    print(
      "discovery: press --broker (find, connect, press) took \(String(format: "%.3f", pressSeconds)) s"
    )

    let rescan = try ChildProcess(
      "/usr/bin/env", hosts.exec(in: hosts.remote, "tenfoot-remote") + ["scan"] + remoteState,
      environment: hosts.environment(hosts.remote))
    #expect(try rescan.waitForExit(timeout: 20) == 0)
    #expect(rescan.output.contains { $0.hasPrefix("Living room") && $0.contains("  paired") })

    // Another broker answers for the name at the same address with another key (a forged
    // answer, or a reinstall): the paired remote refuses it before connecting.
    broker.signal(SIGTERM)
    _ = try broker.waitForExit(timeout: 20)
    let impostor = try ChildProcess(
      "/usr/bin/env",
      hosts.exec(in: hosts.broker, "tenfoot-broker")
        + [
          "--control", "tcp://0.0.0.0:7700", "--state", "tcp://0.0.0.0:7701", "--data-dir",
          directory.path + "/impostor", "--name", "Living room",
        ],
      environment: hosts.environment(hosts.broker))
    try impostor.waitForErrorLine(timeout: 20, "the impostor's announcement") {
      $0.contains("announced on the local network")
    }
    let refused = try ChildProcess(
      "/usr/bin/env",
      hosts.exec(in: hosts.remote, "tenfoot-remote")
        + ["press", "left", "--broker", "Living room"] + remoteState,
      environment: hosts.environment(hosts.remote))
    #expect(try refused.waitForExit(timeout: 20) == 1)
    let message = refused.errors.joined(separator: "\n")
    #expect(message.contains("not the key"), "\(message)")
    #expect(message.contains("this program paired with: refusing it"), "\(message)")
    let status = try ChildProcess(
      "/usr/bin/env",
      hosts.exec(in: hosts.remote, "tenfoot-remote") + ["scan"] + remoteState,
      environment: hosts.environment(hosts.remote))
    #expect(try status.waitForExit(timeout: 20) == 0)
    #expect(status.output.contains { $0.contains("KEY MISMATCH") }, "\(status.output)")
  }

  @Test("without avahi-daemon: scan and --broker fail saying so; the broker serves on")
  func noAvahi() throws {
    let directory = try TemporaryDirectory()
    // A system bus address where nothing listens: what a machine without Avahi looks like.
    let environment = [
      "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(directory.path)/no-bus",
      "TENFOOT_RUNTIME_DIR": directory.path + "/run",
      "TENFOOT_STATE_DIR": directory.path + "/state",
    ]
    let scan = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"), ["scan"], environment: environment)
    #expect(try scan.waitForExit(timeout: 20) == 1)
    let scanMessage = scan.errors.joined(separator: "\n")
    #expect(scanMessage.contains("the Avahi daemon is not running"), "\(scanMessage)")

    let press = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"), ["press", "right", "--broker", "Living room"],
      environment: environment)
    #expect(try press.waitForExit(timeout: 20) == 1)
    #expect(press.errors.joined().contains("the Avahi daemon is not running"), "\(press.errors)")

    let broker = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"),
      ["--control", "tcp://0.0.0.0:*", "--state", "tcp://0.0.0.0:*", "--name", "Kitchen"],
      environment: environment)
    let warning = try broker.waitForErrorLine(timeout: 20, "the broker's Avahi warning") {
      $0.contains("not announced on the network")
    }
    #expect(warning.contains("avahi-daemon is not running"), "\(warning)")
    let ready = try broker.waitForLine(timeout: 20, "broker ready") {
      $0.hasPrefix("tenfoot-broker ready")
    }
    #expect(ready.line.contains("control=tcp://0.0.0.0:"), "\(ready.line)")
    #expect(broker.isRunning)
  }

  @Test("bad --name and --broker combinations are usage errors")
  func usage() throws {
    let badName = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"), ["--name", "tv\u{1B}[2J"])
    #expect(try badName.waitForExit(timeout: 20) != 0)
    #expect(badName.errors.joined().contains("--name: the instance name is refused"))
    let both = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      ["press", "right", "--broker", "tv", "--control", "tcp://127.0.0.1:7700"])
    #expect(try both.waitForExit(timeout: 20) != 0)
    #expect(both.errors.joined().contains("give --broker or the endpoints"))
  }
}
