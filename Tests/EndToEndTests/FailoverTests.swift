import Foundation
import TestSupport
import Testing

/// Broker failover on PostgreSQL with real processes: two brokers of one zone, a real
/// PostgreSQL 15, a headless screen and remotes given both brokers' endpoints, CURVE TCP on
/// loopback (127.0.0.1, one port set per broker). `FailoverAcrossHostsTests` runs the same
/// zone across network namespaces and cuts the active broker's link.
@Suite("Failover (two brokers, PostgreSQL)", .enabled(if: TestPostgres.shouldRun), .serialized)
struct FailoverTests {
  /// Waits for the screen's frame (after stdout line `from`) that satisfies `predicate`.
  @discardableResult
  private func frame(
    _ screen: ChildProcess, from start: Int = 0, timeout: Double = 10, _ what: String,
    where predicate:
      @escaping ((epoch: UInt64, focused: String?, states: [String: String])) ->
      Bool
  ) throws -> (index: Int, epoch: UInt64) {
    let found = try screen.waitForLine(from: start, timeout: timeout, what) { line in
      ZoneStack.frame(line).map(predicate) ?? false
    }
    return (found.index, try #require(ZoneStack.frame(found.line)).epoch)
  }

  /// Brings up a, then b (standby), the screen, and two acknowledged presses (focus r1c1, r0c0
  /// selected on the way). Returns the screen and the index of the frame showing r1c1.
  private func startZone(_ stack: ZoneStack, extra: [String] = []) throws -> (
    ChildProcess, Int, UInt64
  ) {
    let a = try stack.startBroker("a", extra: extra)
    // Generous: a zone broker's start (PostgreSQL, migration, the lease) beside a whole
    // parallel test run took over 10 s once.
    try a.waitForLine(timeout: 30, "a's ready line") {
      $0.hasPrefix("tenfoot-broker ready") && $0.contains("term=1")
    }
    try stack.startBroker("b", extra: extra)
    let screen = try stack.screen()
    try frame(screen, "the first frame") { $0.focused == "r0c0" }
    #expect(try stack.press("select").status == 0)
    #expect(try stack.press("right").status == 0)
    #expect(try stack.press("down").status == 0)
    let shown = try frame(screen, "focus on r1c1") {
      $0.focused == "r1c1" && $0.states["r0c0"] == "selected"
    }
    return (screen, shown.index, shown.epoch)
  }

  @Test("kill -9 of the active broker: the standby takes over, the screen keeps its focus")
  func killActive() throws {
    let stack = try ZoneStack()
    let (screen, shown, epoch) = try startZone(stack)
    let a = try #require(stack.brokers["a"])
    let b = try #require(stack.brokers["b"])
    let killed = ContinuousClock.now
    kill(a.pid, SIGKILL)
    try b.waitForLine(timeout: 30, "b's ready line") {
      $0.hasPrefix("tenfoot-broker ready") && $0.contains("term=2")
    }
    let active = ContinuousClock.now - killed
    // Same focus and selection, from the store, under the new broker's epoch.
    let resynced = try frame(screen, from: shown + 1, "the frame after takeover") {
      $0.epoch != epoch && $0.focused == "r1c1" && $0.states["r0c0"] == "selected"
    }
    let shownAgain = ContinuousClock.now - killed
    #expect(try stack.press("right").status == 0)
    try frame(screen, from: resynced.index, "the next press after takeover") {
      $0.epoch == resynced.epoch && $0.focused == "r1c2" && $0.states["r0c0"] == "selected"
    }
    let followed = ContinuousClock.now - killed
    print(
      "failover: kill -9 → standby active \(Int(active / .milliseconds(1))) ms, screen resynced \(Int(shownAgain / .milliseconds(1))) ms, next press shown \(Int(followed / .milliseconds(1))) ms"
    )
    let status = try ZoneStack.run(
      "tenfoot-broker", ["status", "--store", stack.postgres.url, "--zone", "hall"])
    #expect(status.contains("term: 2"), "\(status)")
    #expect(status.contains { $0.hasPrefix("active: b (lock held") }, "\(status)")
  }

  @Test(
    "a press issued at once after kill -9 of the active broker waits for the screen, then lands")
  func pressRightAfterKill() throws {
    let stack = try ZoneStack()
    let (screen, shown, _) = try startZone(stack)
    let a = try #require(stack.brokers["a"])
    kill(a.pid, SIGKILL)
    // No waiting for b's takeover or the screen's re-registration: the remote waits, bounded.
    let pressed = try stack.press("right")
    #expect(pressed.status == 0, "\(pressed.errors)")
    try frame(screen, from: shown + 1, timeout: 15, "the press after the takeover") {
      $0.focused == "r1c2" && $0.states["r0c0"] == "selected"
    }
  }

  @Test(
    "kill -9 of the active broker with an app's page open: the page is still open on the standby, and Menu closes it",
    .enabled(if: AppTemplateTests.template != nil))
  func pageSurvivesTakeover() throws {
    let stack = try ZoneStack()
    let a = try stack.startBroker("a")
    try a.waitForLine(timeout: 30, "a's ready line") {
      $0.hasPrefix("tenfoot-broker ready") && $0.contains("term=1")
    }
    let b = try stack.startBroker("b")
    // The Swift template as the TV's screen (the screen's key: its state directory).
    let app = try ChildProcess(
      try AppTemplateTests.requireTemplate(),
      [
        "--renderer", "headless", "--frames", "-", "--id", "main", "--state-dir",
        stack.directory.path + "/screen",
      ] + stack.clientArguments, environment: stack.environment)
    let menu = try frame(app, timeout: 15, "the template's menu") { $0.focused == "weather" }
    #expect(try stack.press("select").status == 0)
    let page = try frame(app, from: menu.index, "the Weather page") {
      $0.focused == "page-weather"
    }
    kill(a.pid, SIGKILL)
    try b.waitForLine(timeout: 30, "b's ready line") {
      $0.hasPrefix("tenfoot-broker ready") && $0.contains("term=2")
    }
    let restored = try frame(app, from: page.index + 1, timeout: 15, "the page on b") {
      $0.epoch != page.epoch && $0.focused == "page-weather"
    }
    // Menu is the app's to answer on the new broker: the page closes, focus goes back.
    #expect(try stack.press("menu").status == 0)
    try frame(app, from: restored.index, "the menu again on b") {
      $0.epoch == restored.epoch && $0.focused == "weather" && $0.states["page-weather"] == nil
    }
  }

  @Test("a remote paired on a is let in by b after kill -9; a revoke during b's term holds")
  func allowListFollowsTheZone() throws {
    let stack = try ZoneStack()
    let (screen, shown, epoch) = try startZone(stack)
    let paired = try stack.pair("phone", screen: screen, from: shown)
    let line = try #require(paired.first { $0.hasPrefix("paired: this remote is ") }, "\(paired)")
    let id = String(try #require(line.split(separator: " ").dropFirst(4).first))
    let a = try #require(stack.brokers["a"])
    let b = try #require(stack.brokers["b"])
    kill(a.pid, SIGKILL)
    try b.waitForLine(timeout: 30, "b's ready line") {
      $0.hasPrefix("tenfoot-broker ready") && $0.contains("term=2")
    }
    // Until the screen has registered again with b, a press for it is refused UNKNOWN_SCREEN
    // (documented): wait for its frame under b's epoch, as a person would see it.
    let resynced = try frame(screen, from: shown + 1, "the frame after takeover") {
      $0.epoch != epoch && $0.focused == "r1c1"
    }
    // b never saw the pairing: it loaded the zone's allow-list when it took over. (Retried: the
    // phone's first press may time out on a's dead endpoint twice on a loaded machine; a
    // refusal as "not paired" would repeat.)
    var moved = try stack.press("right", stateDir: "phone")
    var failures = moved.errors
    for _ in 0..<2 where moved.status != 0 {
      moved = try stack.press("right", stateDir: "phone")
      failures += moved.errors
    }
    #expect(moved.status == 0, "\(failures)")
    #expect(!failures.joined().contains("not paired"), "b refused the phone: \(failures)")
    try frame(screen, from: resynced.index, "r1c2 pressed by the phone") { $0.focused == "r1c2" }
    _ = try ZoneStack.run("tenfoot-broker", ["remotes", "revoke", id] + stack.zoneStore)
    let refused = try stack.press("left", stateDir: "phone")
    #expect(refused.status != 0, "a revoked remote's press was acknowledged")
    #expect(refused.errors.joined().contains("not paired"), "\(refused.errors)")
    #expect(
      try stack.postgres.psql(
        "SELECT name, revoked_at IS NOT NULL FROM tenfoot_peer WHERE zone = 'hall' AND peer_id = '\(id)'"
      ) == "phone|t")
    // The zone's other remote is still allowed.
    #expect(try stack.press("down").status == 0)
  }

  @Test("SIGSTOP past the takeover, then SIGCONT: the old term's writes are refused, nothing lost")
  func pausedActiveIsFenced() throws {
    let stack = try ZoneStack()
    let (screen, shown, epoch) = try startZone(stack)
    let a = try #require(stack.brokers["a"])
    let b = try #require(stack.brokers["b"])
    kill(a.pid, SIGSTOP)
    defer { kill(a.pid, SIGCONT) }
    // The lease (0.6 s) runs out; b ends a's lock connection and takes over with term 2.
    try b.waitForLine(timeout: 15, "b's ready line") {
      $0.hasPrefix("tenfoot-broker ready") && $0.contains("term=2")
    }
    let resynced = try frame(screen, from: shown + 1, timeout: 15, "the frame from b") {
      $0.epoch != epoch && $0.focused == "r1c1"
    }
    // Acknowledged by b; retried until it reaches b (a's old connections stall while paused).
    var moved = try stack.press("right")
    for _ in 0..<3 where moved.status != 0 { moved = try stack.press("right") }
    #expect(moved.status == 0, "\(moved.errors)")
    try frame(screen, from: resynced.index, timeout: 15, "r1c2 from b") { $0.focused == "r1c2" }
    // A press sent to a alone waits in its socket while it is paused; then a resumes.
    let own = try #require(stack.endpoints["a"])
    let stale = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      [
        "press", "left", "--screen", "main", "--timeout", "5", "--state-dir",
        stack.directory.path + "/remote", "--control", own.control, "--state", own.state,
        "--pairing", own.pairing, "--broker-key", stack.brokerKey,
      ], environment: stack.environment)
    usleep(300_000)  // Not synchronisation: lets the stale request reach a's socket first.
    kill(a.pid, SIGCONT)
    try a.waitForLine(timeout: 10, "a standing by again") { $0.hasPrefix("tenfoot-broker standby") }
    try a.waitForErrorLine("a's step-down log") { $0.contains("broker stepped down") }
    #expect(
      try stale.waitForExit(timeout: 15) != 0, "a stale write was acknowledged: \(stale.errors)")
    // The store keeps b's acknowledged change, written under term 2.
    let row = try stack.postgres.psql(
      "SELECT data->>'focused', term FROM tenfoot_session WHERE zone = 'hall' AND screen_id = 'main'"
    )
    #expect(row == "r1c2|2")
    #expect(try stack.press("down").status == 0)
    try frame(screen, from: resynced.index, timeout: 15, "r2c2 from b") { $0.focused == "r2c2" }
    let status = try ZoneStack.run(
      "tenfoot-broker", ["status", "--store", stack.postgres.url, "--zone", "hall"])
    #expect(status.contains("term: 2"), "\(status)")
    #expect(status.contains { $0.hasPrefix("standby: a") }, "\(status)")
  }

  @Test("PostgreSQL restarted: presses in the gap are not acknowledged, service resumes by itself")
  func storeRestart() throws {
    let stack = try ZoneStack()
    let (screen, shown, epoch) = try startZone(stack)
    stack.postgres.stop()
    let gap = try stack.press("left", timeout: 1)
    #expect(gap.status != 0, "a press was acknowledged while the store was down")
    try stack.postgres.start()
    // One of the two brokers takes the zone again, with the next term.
    let deadline = ContinuousClock.now + .seconds(20)
    var resumed = false
    while !resumed, ContinuousClock.now < deadline {
      for broker in stack.brokers.values {
        let line = try? broker.waitForLine(timeout: 0.2, "a ready line of term 2") {
          $0.hasPrefix("tenfoot-broker ready") && $0.hasSuffix("term=2")
        }
        if line != nil { resumed = true }
      }
    }
    #expect(resumed, "no broker took the zone again within 20 s of PostgreSQL's restart")
    let resynced = try frame(screen, from: shown + 1, timeout: 15, "the frame of term 2") {
      $0.epoch != epoch && $0.focused == "r1c1"
    }
    let moved = try stack.press("right")
    #expect(moved.status == 0, "\(moved.errors)")
    // The press in the gap (left) was not applied: one step right of r1c1.
    try frame(screen, from: resynced.index, timeout: 15, "r1c2 after the restart") {
      $0.focused == "r1c2"
    }
  }

  @Test("PostgreSQL restarted under sustained presses: no acknowledged press lost, service resumes")
  func storeRestartUnderLoad() throws {
    let stack = try ZoneStack()
    let a = try stack.startBroker("a")
    try a.waitForLine(timeout: 30, "a's ready line") {
      $0.hasPrefix("tenfoot-broker ready") && $0.hasSuffix("term=1")
    }
    try stack.startBroker("b")
    let screen = try stack.screen(rows: 1, columns: 200)
    try frame(screen, "the first frame") { $0.focused == "r0c0" }
    // The load driver: one remote (one connection) pressing `right` as fast as each press is
    // answered, going on after failures; every outcome is one line on its standard output.
    let input = Pipe()
    let load = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"),
      [
        "script", "-", "--keep-going", "--screen", "main", "--timeout", "1", "--state-dir",
        stack.directory.path + "/remote",
      ] + stack.clientArguments, environment: stack.environment,
      stdin: input.fileHandleForReading)
    var outcomes: [(column: Int?, line: String, at: ContinuousClock.Instant)] = []
    func pressOnce() throws {
      input.fileHandleForWriting.write(Data("right\n".utf8))
      let line = try load.waitForLine(
        from: outcomes.count, timeout: 20, "press \(outcomes.count)'s outcome"
      ) { _ in true }
      let acknowledged = line.line.hasPrefix("right:") && !line.line.hasPrefix("right: error:")
      let column = line.line.split(separator: " ").last.flatMap { Int($0.dropFirst(3)) }
      outcomes.append((acknowledged ? column : nil, line.line, ContinuousClock.now))
    }
    for _ in 0..<20 { try pressOnce() }
    #expect(outcomes.allSatisfy { $0.column != nil }, "\(outcomes.map(\.line))")
    let stopped = ContinuousClock.now
    stack.postgres.stop()
    // Pressing through the gap: at least 2 s, and until three presses in a row failed.
    while outcomes.suffix(3).contains(where: { $0.column != nil })
      || ContinuousClock.now < stopped + .seconds(2), outcomes.count < 2000
    {
      try pressOnce()
    }
    try stack.postgres.start()
    let restarted = ContinuousClock.now
    // Pressing on until twenty presses were acknowledged after the restart.
    let before = outcomes.count
    var resumed: Duration?
    while outcomes[before...].filter({ $0.column != nil }).count < 20,
      ContinuousClock.now < restarted + .seconds(60)
    {
      try pressOnce()
      if resumed == nil, outcomes.last?.column != nil { resumed = ContinuousClock.now - restarted }
    }
    let failures = outcomes.filter { $0.column == nil }
    let lastFailure = failures.last.map { Int(($0.at - restarted) / .milliseconds(1)) } ?? 0
    print(
      "store restart under load: \(outcomes.count) presses, \(failures.count) failed (store down \(Int((restarted - stopped) / .milliseconds(1))) ms), first acknowledged \(resumed.map { "\(Int($0 / .milliseconds(1))) ms" } ?? "never"), last failure \(lastFailure) ms after the restart"
    )
    for (failure, count) in Dictionary(grouping: failures.map(\.line), by: { $0 }) {
      print("  \(count.count) × \(failure)")
    }
    #expect(!failures.isEmpty, "no press failed while PostgreSQL was down")
    #expect(
      outcomes[before...].filter({ $0.column != nil }).count >= 20,
      "service did not resume within 60 s: \(outcomes.suffix(5).map(\.line))")
    // Each failure is a clear error: the store unavailable; no broker answering (or none
    // listening) while both stand by; or, just after a broker took the zone again, the screen's session not there
    // yet (a session comes back when its screen re-registers after hearing the new epoch).
    for failure in failures {
      #expect(
        failure.line.contains("store_unavailable") || failure.line.contains("no broker answered")
          || failure.line.contains("no broker is listening")
          || failure.line.contains("unknown_screen"), "\(failure.line)")
    }
    // No acknowledged press was lost: each acknowledged press moved focus one further than the
    // last acknowledged one, give or take the failed ones between (a failure's outcome may be
    // unknown: applied, or not).
    // A press is a tap, whenever its down was acknowledged (the first press after the restart
    // waits for the takeover and the screen): an acknowledged one names exactly one move.
    for (index, outcome) in outcomes.enumerated() where outcome.column != nil {
      let moves = outcome.line.components(separatedBy: " → ").count - 1
      #expect(
        moves == 1,
        """
        acknowledged press #\(index) moved focus \(moves) steps: \(outcome.line)
        \(Self.transcript(outcomes, stopped: stopped, restarted: restarted, stack: stack))
        """)
    }
    var last = 0
    var failedSince = 0
    for outcome in outcomes {
      guard let column = outcome.column else {
        failedSince += 1
        continue
      }
      #expect(
        column > last && column <= last + failedSince + 1,
        """
        after r0c\(last) and \(failedSince) failures an acknowledged press reached r0c\(column)
        \(Self.transcript(outcomes, stopped: stopped, restarted: restarted, stack: stack))
        """)
      last = column
      failedSince = 0
    }
    load.kill()
    // Durable: the store and the screen hold the last acknowledged focus.
    let stored = try stack.postgres.psql(
      "SELECT data->>'focused' FROM tenfoot_session WHERE zone = 'hall' AND screen_id = 'main'")
    #expect(stored == "r0c\(last)")
    try frame(screen, timeout: 15, "the last acknowledged focus r0c\(last)") {
      $0.focused == "r0c\(last)"
    }
  }

  /// What a load run did, for a failure's message: every outcome line of the remote with when
  /// the test read it (ms from PostgreSQL's stop, and from its restart), then the brokers' log
  /// lines (all of them: the store's failures, step-downs, takeovers and reloads).
  private static func transcript(
    _ outcomes: [(column: Int?, line: String, at: ContinuousClock.Instant)],
    stopped: ContinuousClock.Instant, restarted: ContinuousClock.Instant, stack: ZoneStack
  ) -> String {
    func milliseconds(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) -> Int {
      Int((to - from) / .milliseconds(1))
    }
    var lines = ["outcomes (ms after the stop / after the restart):"]
    for (index, outcome) in outcomes.enumerated() {
      lines.append(
        "  #\(index) \(milliseconds(stopped, outcome.at)) / \(milliseconds(restarted, outcome.at)) ms: \(outcome.line)"
      )
    }
    for (name, broker) in stack.brokers.sorted(by: { $0.key < $1.key }) {
      lines.append("broker \(name)'s standard output:")
      lines += broker.output.map { "  " + $0 }
      lines.append("broker \(name)'s log:")
      lines += broker.errors.map { "  " + $0 }
    }
    return lines.joined(separator: "\n")
  }
}
