import Foundation
import TestSupport
import Testing

/// Failover with every part on its own network host (network namespaces on one bridge, see
/// `NamespaceHosts`): broker a, broker b, PostgreSQL 15, a headless screen and a remote, over
/// CURVE TCP. The active broker's host is cut off (its link down), as a pulled cable or a dead
/// switch port would.
///
/// How the old leader's PostgreSQL session goes away: nothing tells PostgreSQL that a's host is
/// gone, so the backend holding a's session-level advisory lock would linger (TCP keepalives
/// would only notice after minutes). It does not matter: a's lease (0.6 s by default, renewed
/// every 120 ms) runs out, and the standby ends the stalled holder's lock connection with
/// `pg_terminate_backend` before it takes the lock (see `ZoneLeadership`). On its side, a's
/// renewal gets no answer within 0.48 s, so a steps down by itself and unbinds its endpoints,
/// before b's takeover. The test cluster has no special settings: a deployment needs none.
@Suite("Failover across network hosts (namespaces, PostgreSQL, CURVE TCP)", .serialized)
struct FailoverAcrossHostsTests {
  @Test(
    "the active broker's host cut off: b takes over, the screen keeps its focus and follows; back, a stays standby",
    .enabled(
      if: NamespaceNetwork.testsEnabled && TestPostgres.shouldRun,
      "needs root, iproute2 (network namespaces) and PostgreSQL 15"))
  func activeHostCutOff() throws {
    try NamespaceNetwork.requireAvailable()
    let hosts = try NamespaceHosts(["a", "b", "pg", "screen", "remote"])
    let postgres = try TestPostgres(
      host: hosts.address("pg"), port: 5432, namespace: hosts.namespace("pg"),
      trustedNetwork: NamespaceHosts.network)
    let directory = try TemporaryDirectory()
    let environment = [
      "TENFOOT_RUNTIME_DIR": directory.path + "/run",
      "TENFOOT_STATE_DIR": directory.path + "/state",
    ]
    let zoneStore = ["--store", postgres.url, "--zone", "hall"]

    // The zone's key pair, created once on a and copied to b by the operator.
    let data = ["a": directory.path + "/broker-a", "b": directory.path + "/broker-b"]
    let brokerKey = try #require(
      ZoneStack.run("tenfoot-broker", ["key", "--data-dir", data["a"] ?? ""]).first)
    try FileManager.default.createDirectory(
      atPath: data["b"] ?? "", withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    try FileManager.default.copyItem(
      atPath: (data["a"] ?? "") + "/broker-key.json",
      toPath: (data["b"] ?? "") + "/broker-key.json")
    // The screen's and the remote's keys, on the zone's allow-list in the store.
    let screenKey = try #require(
      ZoneStack.run(
        "tenfoot-screen", ["--print-key", "--state-dir", directory.path + "/screen"]
      ).first)
    let remoteKey = try Self.remoteKey(directory.path + "/remote", brokerKey: brokerKey)
    for (name, role, key) in [("tv", [], screenKey), ("remote", ["--role", "remote"], remoteKey)] {
      let add = try hosts.start(
        on: "a", "tenfoot-broker",
        ["remotes", "add", "--name", name, "--key", key] + role + zoneStore,
        environment: environment)
      #expect(try add.waitForExit(timeout: 20) == 0, "remotes add \(name): \(add.errors)")
    }

    func endpoints(_ host: String) -> (control: String, state: String) {
      ("tcp://\(hosts.address(host)):7700", "tcp://\(hosts.address(host)):7701")
    }
    func startBroker(_ name: String) throws -> ChildProcess {
      let broker = try hosts.start(
        on: name, "tenfoot-broker",
        zoneStore + [
          "--broker-name", name, "--control", endpoints(name).control, "--state",
          endpoints(name).state, "--data-dir", data[name] ?? "",
        ], environment: environment)
      try broker.waitForLine(timeout: 20, "\(name)'s standby line") {
        $0.hasPrefix("tenfoot-broker standby")
      }
      return broker
    }
    let a = try startBroker("a")
    try a.waitForLine(timeout: 20, "a's ready line") {
      $0.hasPrefix("tenfoot-broker ready") && $0.hasSuffix("term=1")
    }
    let b = try startBroker("b")

    // The screen and the remote are given both brokers.
    let clients = [
      "--control", [endpoints("a").control, endpoints("b").control].joined(separator: ","),
      "--state", [endpoints("a").state, endpoints("b").state].joined(separator: ","),
      "--broker-key", brokerKey,
    ]
    let layout = try directory.write("grid.json", TestLayouts.gridJSON(rows: 3, columns: 3))
    let screen = try hosts.start(
      on: "screen", "tenfoot-screen",
      [
        "--layout", layout, "--renderer", "headless", "--frames", "-", "--id", "main",
        "--state-dir", directory.path + "/screen",
      ] + clients, environment: environment)
    @discardableResult
    func frame(
      from start: Int = 0, timeout: Double = 20, _ what: String,
      where predicate:
        @escaping ((epoch: UInt64, focused: String?, states: [String: String])) ->
        Bool
    ) throws -> (index: Int, epoch: UInt64) {
      let found = try screen.waitForLine(from: start, timeout: timeout, what) { line in
        ZoneStack.frame(line).map(predicate) ?? false
      }
      return (found.index, try #require(ZoneStack.frame(found.line)).epoch)
    }
    func press(_ key: String) throws -> (status: Int32, errors: [String]) {
      let remote = try hosts.start(
        on: "remote", "tenfoot-remote",
        [
          "press", key, "--screen", "main", "--timeout", "3", "--state-dir",
          directory.path + "/remote",
        ] + clients, environment: environment)
      let status = try remote.waitForExit(timeout: 20)
      return (status, remote.errors)
    }

    try frame("the first frame") { $0.focused == "r0c0" }
    for key in ["select", "right", "down"] {
      let pressed = try press(key)
      #expect(pressed.status == 0, "\(key): \(pressed.errors)")
    }
    let shown = try frame("focus on r1c1, r0c0 selected") {
      $0.focused == "r1c1" && $0.states["r0c0"] == "selected"
    }

    // A remote on a's own host, talking to a alone (its connection stays up while the cable
    // is out): one acknowledged press now, and one stale press once a is cut off.
    let staleInput = Pipe()
    let stale = try hosts.start(
      on: "a", "tenfoot-remote",
      [
        "script", "-", "--screen", "main", "--timeout", "3", "--state-dir",
        directory.path + "/remote", "--control", endpoints("a").control, "--state",
        endpoints("a").state, "--broker-key", brokerKey,
      ], environment: environment, stdin: staleInput.fileHandleForReading)
    staleInput.fileHandleForWriting.write(Data("right\n".utf8))
    try stale.waitForLine(timeout: 20, "the press on a's host acknowledged") {
      $0.hasPrefix("right:") && $0.hasSuffix("focused r1c2")
    }
    let before = try frame(from: shown.index, "r1c2 from a") {
      $0.epoch == shown.epoch && $0.focused == "r1c2"
    }

    try hosts.cut("a")
    let cut = ContinuousClock.now
    staleInput.fileHandleForWriting.write(Data("left\n".utf8))
    try b.waitForLine(timeout: 30, "b's ready line of term 2") {
      $0.hasPrefix("tenfoot-broker ready") && $0.hasSuffix("term=2")
    }
    let active = ContinuousClock.now - cut
    // The same focus and selection, from the store, under b's epoch.
    let resynced = try frame(from: before.index + 1, timeout: 30, "the frame from b") {
      $0.epoch != before.epoch && $0.focused == "r1c2" && $0.states["r0c0"] == "selected"
    }
    let shownAgain = ContinuousClock.now - cut
    var moved = try press("down")
    var failures = moved.errors
    for _ in 0..<2 where moved.status != 0 {
      moved = try press("down")
      failures += moved.errors
    }
    #expect(moved.status == 0, "\(failures)")
    try frame(from: resynced.index, timeout: 30, "the next press shown") {
      $0.epoch == resynced.epoch && $0.focused == "r2c2" && $0.states["r0c0"] == "selected"
    }
    let followed = ContinuousClock.now - cut
    print(
      "failover across hosts: link down → standby active \(Int(active / .milliseconds(1))) ms, screen resynced \(Int(shownAgain / .milliseconds(1))) ms, next press shown \(Int(followed / .milliseconds(1))) ms"
    )

    // a noticed by itself (its renewal got no answer) and unbound; the stale press on its own
    // host was not acknowledged.
    let steppedDown = try a.waitForErrorLine(timeout: 20, "a's step-down log") {
      $0.contains("broker stepped down")
    }
    #expect(steppedDown.contains("lost the zone's lock"), "\(steppedDown)")
    try staleInput.fileHandleForWriting.close()
    #expect(try stale.waitForExit(timeout: 20) != 0, "the stale press: \(stale.output)")
    #expect(
      !stale.output.contains { $0.hasPrefix("left:") }, "a acknowledged a press while cut off")

    // Back on the network, a stays standby: b holds the lock under term 2.
    try hosts.reconnect("a")
    try a.waitForErrorLine(timeout: 30, "a reaching the store again") {
      $0.contains("zone store reachable again")
    }
    let status = try hosts.start(
      on: "b", "tenfoot-broker", ["status"] + zoneStore, environment: environment)
    #expect(try status.waitForExit(timeout: 20) == 0, "\(status.errors)")
    #expect(status.output.contains("term: 2"), "\(status.output)")
    #expect(status.output.contains { $0.hasPrefix("active: b (lock held") }, "\(status.output)")
    #expect(status.output.contains { $0.hasPrefix("standby: a") }, "\(status.output)")
    #expect(
      !a.output.contains { $0.hasPrefix("tenfoot-broker ready") && $0.hasSuffix("term=3") },
      "a took the zone again")
    // The store holds b's acknowledged change under term 2: nothing of a's old term
    // overwrote it (the stale press included, had its write reached the store late).
    #expect(
      try postgres.psql(
        "SELECT data->>'focused', term FROM tenfoot_session WHERE zone = 'hall' AND screen_id = 'main'"
      ) == "r2c2|2")
    // Service goes on with a back on the network.
    #expect(try press("up").status == 0)
    try frame(from: resynced.index, timeout: 20, "r1c2 after a came back") {
      $0.epoch == resynced.epoch && $0.focused == "r1c2"
    }
  }

  /// The remote's public key: its first run creates its key pair (no broker needs to answer).
  static func remoteKey(_ stateDirectory: String, brokerKey: String) throws -> String {
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      [
        "press", "up", "--broker-key", brokerKey, "--control", "tcp://127.0.0.1:9", "--state",
        "tcp://127.0.0.1:9", "--state-dir", stateDirectory, "--timeout", "0.2",
      ])
    _ = try remote.waitForExit(timeout: 10)
    let data = try Data(contentsOf: URL(fileURLWithPath: stateDirectory + "/key.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(json["publicKey"] as? String)
  }
}
