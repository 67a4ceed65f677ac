import ArgumentParser
import Dispatch
import Foundation
import Synchronization
import TestSupport

/// `tenfoot-bench zones`: several zones on one throw-away PostgreSQL 15, each an active broker
/// and a standby, each with its screens registered and its remotes pressing (the scale bench's
/// open loop, one thread per zone, all at once). Prints each zone's press → screen latency,
/// the store round trips per input and the CPU of every process.
struct ZonesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "zones",
    abstract: "Press → screen latency of several zones on one PostgreSQL (active + standby each).",
    discussion: """
      Brokers run with --insecure on 127.0.0.1 (plain TCP): the figures are the store's and \
      the brokers' cost, without CURVE. Store round trips per input are PostgreSQL's committed \
      transactions during the run, less those of an idle period as long (the standbys' lock \
      polls and the lease renewals), over the inputs sent.
      """)

  @Option(help: "Zones, each with an active broker and a standby.")
  var zones = 3

  @Option(help: "Screens registered per zone (10×20 grids).")
  var screens = 1000

  @Option(help: "Remotes per zone; remote i presses on screen i.")
  var remotes = 100

  @Option(help: "Key events per second per remote (presses and releases alternate).")
  var rate = 5.0

  @Option(help: "Seconds of load.")
  var seconds = 10.0

  @Option(help: "Seconds of the idle period that gives the store's background rate.")
  var idleSeconds = 5.0

  func run() throws {
    BenchPeers.raiseFileLimit()
    let postgres = try TestPostgres()
    let directories = try (0..<zones).map { _ in try TemporaryDirectory() }
    var zoneList: [BenchZone] = []
    for index in 0..<zones {
      zoneList.append(
        try BenchZone(postgres: postgres, directory: directories[index], zone: "zone\(index)"))
    }
    let servers = zoneList.map { zone in
      BenchProcesses.Server(
        process: zone.brokers[zone.active], control: zone.endpoints[zone.active].control,
        state: zone.endpoints[zone.active].state, startNanoseconds: 0)
    }
    let processes =
      zoneList.enumerated().flatMap { index, zone in
        zone.brokers.enumerated().map { broker, process in
          ("zone\(index) \(broker == zone.active ? "active" : "standby")", process.pid)
        }
      }
    // The idle rate of store transactions (standbys polling, leases renewed).
    let idleStart = try Self.transactions(postgres)
    Thread.sleep(forTimeInterval: idleSeconds)
    let idlePerSecond = Double(try Self.transactions(postgres) - idleStart) / idleSeconds

    // The zones register their screens, then wait for one another: the figures are taken
    // over the load alone, all zones pressing at once.
    let barrier = ZoneBarrier(parties: zones)
    let samples = Mutex([Sample]())
    @Sendable func sample() {
      let taken = Sample(
        at: ContinuousClock.now,
        cpu: processes.map { (try? ProcessStats.read(pid: $0.1).cpuSeconds) ?? 0 },
        store: (try? Self.storeCPU(postgres)) ?? 0,
        transactions: (try? Self.transactions(postgres)) ?? 0)
      samples.withLock { $0.append(taken) }
    }
    let results = Mutex([Int: Result<ScaleResult, any Error>]())
    // One thread per zone (not concurrentPerform: it runs as many at once as there are
    // cores, and the zones wait for one another).
    let finished = DispatchGroup()
    for index in 0..<zones {
      finished.enter()
      let server = servers[index]
      let (screens, remotes, rate, seconds) = (screens, remotes, rate, seconds)
      Thread.detachNewThread {
        let outcome = Result {
          try ScaleBench.run(
            .tcp, screens: screens, rows: 10, columns: 20, remotes: remotes, rate: rate,
            seconds: seconds, server: server,
            loadPhase: { _ in barrier.arrive(last: sample) })
        }
        // A zone that failed before its load still arrives, so the others do not wait forever.
        if case .failure = outcome { barrier.arrive(last: sample) }
        results.withLock { $0[index] = outcome }
        finished.leave()
      }
    }
    finished.wait()
    let taken = samples.withLock { $0 }
    guard taken.count == 2 else { throw BenchError("a zone failed before or during its load") }
    let collected = results.withLock { $0 }
    let outcomes = try (0..<zones).map { index in
      guard let outcome = collected[index] else { throw BenchError("zone\(index) did not run") }
      return try outcome.get()
    }

    report(outcomes, taken: taken, idlePerSecond: idlePerSecond, processes: processes)
  }

  /// Prints the zones' latency, the store's round trips per input and every process's CPU,
  /// over the load between the two samples.
  private func report(
    _ outcomes: [ScaleResult], taken: [Sample], idlePerSecond: Double,
    processes: [(String, Int32)]
  ) {
    let elapsed = Double((taken[1].at - taken[0].at) / .milliseconds(1)) / 1000
    let transactions = taken[1].transactions - taken[0].transactions
    let storeCPU = taken[1].store - taken[0].store
    let cpuBefore = taken[0].cpu
    let cpuAfter = taken[1].cpu
    Table.line(
      "\(zones) zones × \(screens) screens, \(remotes) remotes × \(rate) events/s each per zone, \(seconds) s (figures over the load: \(String(format: "%.1f", elapsed)) s)"
    )
    Table.row(["zone", "presses", "applied", "median µs", "p99 µs", "p99.9 µs"])
    for (index, result) in outcomes.enumerated() {
      Table.row([
        "zone\(index)", "\(result.pressesSent)", "\(result.pressDeltasApplied)",
        String(format: "%.0f", result.medianMicroseconds),
        String(format: "%.0f", result.p99Microseconds),
        String(format: "%.0f", result.p999Microseconds),
      ])
    }
    let inputs = outcomes.map(\.inputsSent).reduce(0, +)
    let loadTransactions = Double(transactions) - idlePerSecond * elapsed
    Table.line(
      "store: \(transactions) transactions (\(String(format: "%.0f", idlePerSecond))/s when idle), \(String(format: "%.2f", loadTransactions / Double(max(1, inputs)))) round trips per input (\(inputs) inputs)"
    )
    Table.row(["process", "CPU %"])
    for (index, process) in processes.enumerated() {
      Table.row([
        process.0, String(format: "%.1f", (cpuAfter[index] - cpuBefore[index]) / elapsed * 100),
      ])
    }
    Table.row(["postgresql (all backends)", String(format: "%.1f", storeCPU / elapsed * 100)])
  }

  /// Committed transactions of the cluster so far.
  static func transactions(_ postgres: TestPostgres) throws -> Int {
    let text = try postgres.psql(
      "SELECT sum(xact_commit)::bigint FROM pg_stat_database")
    guard let count = Int(text) else {
      throw BenchError("unreadable transaction count: \(text)")
    }
    return count
  }

  /// CPU seconds of the postmaster and its children (the backends).
  static func storeCPU(_ postgres: TestPostgres) throws -> Double {
    let pidFile = try String(
      contentsOfFile: postgres.directory + "/data/postmaster.pid", encoding: .utf8)
    guard let postmaster = pidFile.split(separator: "\n").first.flatMap({ Int32($0) }) else {
      throw BenchError("no postmaster pid")
    }
    var total = try ProcessStats.read(pid: postmaster).cpuSeconds
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for entry in entries {
      guard let pid = Int32(entry),
        let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 2, Int32(fields[1]) == postmaster else { continue }
      total += (try? ProcessStats.read(pid: pid).cpuSeconds) ?? 0
    }
    return total
  }
}

/// CPU and store figures at one instant.
private struct Sample {
  var at: ContinuousClock.Instant
  var cpu: [Double]
  var store: Double
  var transactions: Int
}

/// Lets `parties` threads wait for one another; the last to arrive runs `last` first.
/// (A condition variable by hand: Dispatch has no reusable barrier for plain threads.)
private final class ZoneBarrier: Sendable {
  private let parties: Int
  private let state = Mutex((arrived: 0, generation: 0))
  private let condition = NSCondition()

  init(parties: Int) { self.parties = parties }

  func arrive(last: () -> Void) {
    condition.lock()
    defer { condition.unlock() }
    let (arrived, generation) = state.withLock { state in
      state.arrived += 1
      return (state.arrived, state.generation)
    }
    if arrived == parties {
      last()
      state.withLock { state in
        state.arrived = 0
        state.generation += 1
      }
      condition.broadcast()
      return
    }
    while state.withLock({ $0.generation }) == generation { condition.wait() }
  }
}
