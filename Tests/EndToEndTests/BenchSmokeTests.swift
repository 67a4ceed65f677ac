import Foundation
import TestSupport
import Testing

/// `tenfoot-bench --quick` runs every benchmark with tiny counts, so the benchmark code cannot
/// rot. It checks that figures came out, never what they are (timing is for `scripts/bench`).
@Suite("Benchmarks still run (smoke, tiny counts)", .serialized)
struct BenchSmokeTests {
  @Test(
    "tenfoot-bench --only page --quick times the page path in Chromium: your page (pressed from the bench and through tenfoot-remote script -), the built-in page, the floor",
    .enabled(if: WebScreenTests.chromium != nil || WebScreenTests.browserRequired))
  func pagePath() throws {
    let directory = try TemporaryDirectory()
    let json = directory.path + "/page.json"
    let bench = try ChildProcess(
      TestEnvironment.binary("tenfoot-bench"), ["--only", "page", "--quick", "--output", json])
    let status = try bench.waitForExit(timeout: 180)
    #expect(status == 0, "tenfoot-bench failed: \(bench.errors.suffix(10))")
    #expect(bench.output.joined(separator: "\n").contains("Page path"), "\(bench.output)")
    let object = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: json)))
    let page = try #require((object as? [String: Any])?["page"] as? [String: Any])
    #expect(page["samples"] as? Int == 30)
    for path in ["app", "appScripted", "builtIn", "floor"] {
      let figures = try #require(page[path] as? [String: Any], "no \(path) in \(page)")
      // Every press was seen focused in the page (else the run fails): a time came out.
      #expect((figures["p95Microseconds"] as? Double ?? 0) > 0, "\(path): \(figures)")
    }
  }

  @Test(
    "tenfoot-bench compare A B runs both builds alternately and prints both ratios and their difference"
  )
  func compareBuilds() throws {
    let directory = try TemporaryDirectory()
    let bin = TestEnvironment.binDirectory
    let bench = try ChildProcess(
      TestEnvironment.binary("tenfoot-bench"),
      ["compare", bin, bin, "--rounds", "2", "--inputs", "50", "--keep", directory.path])
    let status = try bench.waitForExit(timeout: 180)
    #expect(status == 0, "tenfoot-bench compare failed: \(bench.errors.suffix(10))")
    let output = bench.output.joined(separator: "\n")
    // Alternating order: A then B in round 1, B then A in round 2.
    let runs = bench.output.filter { $0.hasPrefix("round ") }.map { $0.prefix(9) }
    #expect(runs == ["round 1 A", "round 1 B", "round 2 B", "round 2 A"], "\(output)")
    let rows = bench.output.filter {
      $0.hasPrefix("| ipc median × |") || $0.hasPrefix("| tcp p99 × |")
    }
    #expect(rows.count == 2, "no summary rows in:\n\(output)")
    for row in rows {
      // figure, A, B, B − A, and each build's two rounds.
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(cells.count == 6, "\(row)")
      let a = Double(cells[1]) ?? 0
      let b = Double(cells[2]) ?? 0
      #expect(a > 0 && b > 0, "\(row)")
      #expect(Double(cells[3]) != nil && abs(Double(cells[3])! - (b - a)) < 0.011, "\(row)")
      #expect(cells[4].split(separator: ",").count == 2, "\(row)")
    }
    for name in ["round1-A.json", "round2-B.json"] {
      #expect(FileManager.default.fileExists(atPath: directory.path + "/" + name), "\(name)")
    }
  }

  /// Whether perf can count the syscall tracepoint here (linux-perf installed, tracefs there).
  static let perfWorks: Bool = {
    guard
      let perf = ["/usr/bin/perf", "/usr/local/bin/perf"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { return false }
    guard let probe = try? ChildProcess(perf, ["stat", "-e", "raw_syscalls:sys_enter", "true"])
    else { return false }
    return (try? probe.waitForExit(timeout: 30)) == 0
  }()

  @Test(
    "tenfoot-bench --only accounting counts syscalls, switches and CPU per press for every thread on both paths",
    .enabled(if: perfWorks))
  func accounting() throws {
    let directory = try TemporaryDirectory()
    let json = directory.path + "/accounting.json"
    let bench = try ChildProcess(
      TestEnvironment.binary("tenfoot-bench"),
      ["--only", "accounting", "--quick", "--output", json])
    let status = try bench.waitForExit(timeout: 180)
    #expect(status == 0, "tenfoot-bench failed: \(bench.errors.suffix(10))")
    let object = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: json)))
    let runs = try #require((object as? [String: Any])?["accounting"] as? [[String: Any]])
    #expect(runs.count == 2, "ipc and tcp")
    for run in runs {
      let rows = try #require(run["rows"] as? [[String: Any]])
      for path in ["tenfoot", "floor"] {
        for process in ["server", "client"] {
          let counted = rows.filter {
            $0["path"] as? String == path && $0["process"] as? String == process
          }
          // Every process on the path made system calls while the presses ran.
          let syscalls = counted.reduce(0.0) { $0 + ($1["syscallsPerPress"] as? Double ?? 0) }
          #expect(syscalls >= 1, "\(path) \(process): \(counted)")
        }
      }
    }
  }

  @Test("tenfoot-bench --quick prints every table and writes JSON and an SVG plot")
  func quickRun() throws {
    let directory = try TemporaryDirectory()
    let json = directory.path + "/results.json"
    let svg = directory.path + "/latency.svg"
    let bench = try ChildProcess(
      TestEnvironment.binary("tenfoot-bench"), ["--quick", "--output", json, "--plot", svg])
    let status = try bench.waitForExit(timeout: 300)
    #expect(status == 0, "tenfoot-bench failed: \(bench.errors.suffix(10))")
    let output = bench.output.joined(separator: "\n")
    for table in [
      "End-to-end latency", "Ratio to the floor", "Broker throughput", "Scale:",
      "Idle screens", "Start-up", "Flood:", "Durable:", "Durable ratios", "Durable scale",
      "Crash test with load",
    ] {
      #expect(output.contains(table), "no \(table) table in:\n\(output)")
    }

    let object = try JSONSerialization.jsonObject(
      with: Data(contentsOf: URL(fileURLWithPath: json)))
    let results = try #require(object as? [String: Any])
    #expect(results["mode"] as? String == "quick")
    let latency = try #require(results["latency"] as? [[String: Any]])
    #expect(latency.count == 4, "tenfoot and floor over ipc and tcp")
    for entry in latency {
      let samples = try #require(entry["samples"] as? Int)
      #expect(samples == 300)
      // Percentiles of one histogram are ordered by construction: only "a time was measured"
      // is a check that can fail.
      let median = try #require(entry["medianMicroseconds"] as? Double)
      #expect(median > 0)
    }
    #expect((results["ratios"] as? [Any])?.count == 2)
    let flood = try #require(results["flood"] as? [[String: Any]])
    #expect(flood.count == 2, "one flood run (flooder at nice 19) per transport")
    for entry in flood {
      let flooded = try #require(entry["flooded"] as? [String: Any])
      #expect(flooded["samples"] as? Int == 100)
      #expect((entry["flooderAnsweredRateLimited"] as? Int ?? 0) > 0, "the flood was throttled")
    }
    let throughput = try #require(results["throughput"] as? [[String: Any]])
    #expect(throughput.count == 4)
    for entry in throughput {
      // PUB may drop at its high-water mark by design, so only "deltas flowed" is checked.
      let deltas = try #require(entry["deltasReceived"] as? Int)
      #expect(deltas > 0 && deltas <= 2000)  // About one per press, half the inputs.
      #expect(try #require(entry["inputsPerSecond"] as? Double) > 0)
    }
    let scale = try #require(results["scale"] as? [String: Any])
    #expect(scale["pressDeltasApplied"] as? Int == scale["pressesSent"] as? Int)
    #expect(results["idle"] is [String: Any])
    let idleVirtual = try #require(results["idleVirtual"] as? [String: Any])
    #expect(idleVirtual["itemsPerScreen"] as? Int == 1_000_000, "a virtual grid per idle screen")
    #expect((results["startup"] as? [Any])?.count == 3)
    let durable = try #require(results["durable"] as? [String: Any])
    #expect((durable["ackLatency"] as? [Any])?.count == 2, "1 screen and the scale's screens")
    let durableScale = try #require(durable["scale"] as? [String: Any])
    #expect(durableScale["pressDeltasApplied"] as? Int == durableScale["pressesSent"] as? Int)
    let crash = try #require(results["crash"] as? [String: Any])
    #expect(crash["kills"] as? Int == 4)
    #expect((crash["failures"] as? [Any])?.isEmpty == true, "\(crash)")

    let plot = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(plot.hasPrefix("<svg"))
    #expect(plot.components(separatedBy: "<polyline").count - 1 == 4)
  }

  @Test(
    "tenfoot-bench failover and zones run on a throw-away PostgreSQL (tiny counts)",
    .enabled(if: TestPostgres.shouldRun, "needs PostgreSQL 15"))
  func failoverAndZones() throws {
    let failover = try ChildProcess(
      TestEnvironment.binary("tenfoot-bench"), ["failover", "--takeovers", "2", "--screens", "10"])
    #expect(try failover.waitForExit(timeout: 120) == 0, "\(failover.errors.suffix(10))")
    #expect(
      failover.output.contains { $0.hasPrefix("| 10 | standby active |") }, "\(failover.output)")
    let zones = try ChildProcess(
      TestEnvironment.binary("tenfoot-bench"),
      [
        "zones", "--zones", "2", "--screens", "10", "--remotes", "5", "--rate", "5", "--seconds",
        "1", "--idle-seconds", "1",
      ])
    #expect(try zones.waitForExit(timeout: 180) == 0, "\(zones.errors.suffix(10))")
    // Every press's delta reached the screen side, in both zones.
    let rows = zones.output.map {
      $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    }.filter { $0.count == 6 && ($0.first?.hasPrefix("zone") ?? false) && $0.first != "zone" }
    #expect(rows.count == 2, "\(zones.output)")
    for cells in rows {
      #expect(cells[1] == cells[2] && cells[1] != "0", "\(cells)")
    }
    #expect(zones.output.contains { $0.contains("round trips per input") }, "\(zones.output)")
  }
}
