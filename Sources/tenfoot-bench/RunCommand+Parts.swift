import ArgumentParser
import Foundation

// One method per benchmark part: each prints its table and adds its results.
extension RunCommand {
  /// End-to-end latency against the bare-ZeroMQ floor, and the ratios; returns the plot's series.
  func runLatency(into results: inout BenchResults) throws -> [LatencyPlot.Series] {
    var series: [LatencyPlot.Series] = []
    Table.header(
      "End-to-end latency: input sent → screen state applied (\(inputs) inputs after "
        + "\(warmUp) warm-up\(pauseNote); µs)",
      ["path", "transport", "median", "p90", "p99", "p99.9", "max", "bytes in/delta/ack"])
    for transport in BenchProcesses.Transport.allCases {
      let (tenfoot, floor) = try LatencyBench.run(
        transport, warmUp: warmUp, inputs: inputs, pause: .microseconds(pauseMicroseconds))
      for measurement in [tenfoot, floor] {
        let r = measurement.result
        Table.row([
          r.path, r.transport.rawValue, "\(r.medianMicroseconds)", "\(r.p90Microseconds)",
          "\(r.p99Microseconds)", "\(r.p999Microseconds)", "\(r.maxMicroseconds)",
          "\(r.sizes.input)/\(r.sizes.topic)+\(r.sizes.delta)/\(r.sizes.ack)",
        ])
        results.latency.append(r)
      }
      results.ratios.append(LatencyRatio(tenfoot: tenfoot.result, floor: floor.result))
      let color = transport == .ipc ? "#1f77b4" : "#d62728"
      series.append(
        .init(
          label: "TenFoot \(transport)", color: color, dashed: false,
          histogram: tenfoot.histogram))
      series.append(
        .init(
          label: "floor \(transport)", color: color, dashed: true, histogram: floor.histogram))
    }
    Table.header(
      "Ratio to the floor (target: median ≤ 1.5×, p99 ≤ 2×)",
      ["transport", "median", "p99", "p99.9"])
    for ratio in results.ratios {
      Table.row([
        ratio.transport.rawValue, "\(ratio.median)×", "\(ratio.p99)×", "\(ratio.p999)×",
      ])
    }
    return series
  }

  /// How the latency tables say the samples were paced.
  var pauseNote: String {
    pauseMicroseconds > 0 ? ", \(pauseMicroseconds) µs idle before each sample" : ""
  }

  /// Broker throughput with 1 and 100 remotes per transport.
  func runThroughput(into results: inout BenchResults) throws {
    Table.header(
      "Broker throughput (\(throughputInputs) key events, presses and releases alternating, "
        + "8 in flight per remote)",
      ["transport", "remotes", "inputs/s", "broker CPU ms / 1,000 inputs", "deltas received"])
    for transport in BenchProcesses.Transport.allCases {
      for remotes in [1, 100] {
        let r = try ThroughputBench.run(
          transport, remotes: remotes, inputs: throughputInputs, window: 8)
        Table.row([
          r.transport.rawValue, "\(r.remotes)", "\(Int(r.inputsPerSecond))",
          "\(r.brokerCPUMillisecondsPer1000Inputs)", "\(r.deltasReceived)",
        ])
        results.throughput.append(r)
      }
    }
  }

  /// Many screens and remotes at once.
  func runScale(into results: inout BenchResults) throws {
    let r = try ScaleBench.run(
      .ipc, screens: scaleScreens, rows: 10, columns: 20, remotes: scaleRemotes,
      rate: scaleRate, seconds: scaleSeconds)
    Table.header(
      "Scale: \(r.screens) screens × \(r.itemsPerScreen) items, \(r.remotes) remotes × "
        + "\(r.inputsPerSecondPerRemote)/s for \(r.seconds) s over ipc",
      [
        "registration s", "RSS MiB after registration", "RSS MiB at end", "broker CPU %",
        "median µs", "p99 µs", "p99.9 µs", "inputs sent", "press deltas applied",
      ])
    Table.row([
      "\(r.registrationSeconds)", "\(r.brokerRSSMiBAfterRegistration)",
      "\(r.brokerRSSMiBAtEnd)", "\(r.brokerCPUPercent)", "\(r.medianMicroseconds)",
      "\(r.p99Microseconds)", "\(r.p999Microseconds)", "\(r.inputsSent)",
      "\(r.pressDeltasApplied)/\(r.pressesSent)",
    ])
    results.scale = r
  }

  /// Memory per idle screen: 200 listed items each, then a 1,000,000-item virtual grid each.
  func runIdle(into results: inout BenchResults) throws {
    let listed = try IdleBench.run(
      .ipc, screens: idleScreens, layout: BenchPeers.layout(rows: 10, columns: 20), items: 200)
    let virtual = try IdleBench.run(
      .ipc, screens: idleScreens, layout: BenchPeers.virtualLayout(count: 1_000_000),
      items: 1_000_000)
    for (kind, r) in [("listed", listed), ("virtual", virtual)] {
      Table.header(
        "Idle screens: \(r.screens) × \(r.itemsPerScreen) items, \(kind)",
        ["registration s", "RSS MiB before", "RSS MiB after", "KiB per screen"])
      Table.row([
        "\(r.registrationSeconds)", "\(r.brokerRSSMiBBefore)", "\(r.brokerRSSMiBAfter)",
        "\(r.kibPerScreen)",
      ])
    }
    results.idle = listed
    results.idleVirtual = virtual
  }

  /// Launch to ready, per program.
  func runStartup(into results: inout BenchResults) throws {
    results.startup = try StartupBench.run(runs: startupRuns)
    Table.header(
      "Start-up: launch → ready (\(startupRuns) launches)",
      ["process", "ready means", "median ms", "max ms"])
    for r in results.startup {
      Table.row([r.process, r.ready, "\(r.medianMilliseconds)", "\(r.maxMilliseconds)"])
    }
  }

  /// What a press costs when it waits for the app's reaction (the catalog app in a real
  /// screen process).
  func runReaction() throws -> ReactionResult {
    let result = try ReactionBench.run(samples: reactionSamples)
    Table.header(
      "App reactions: the catalog app in tenfoot-screen, presses over ipc "
        + "(key-down → key-up's ack, \(reactionSamples) each; µs)",
      ["press", "median", "p99", "max"])
    for (name, figures) in [
      ("right: moves focus (baseline)", result.move),
      ("select: opens the detail view, answered after the app's reaction", result.activation),
      ("right right after it: inside the view", result.pressAfterActivation),
      ("menu: closes the view, answered after the app's reaction", result.back),
    ] {
      Table.row([
        name, "\(figures.medianMicroseconds)", "\(figures.p99Microseconds)",
        "\(figures.maxMicroseconds)",
      ])
    }
    return result
  }

  /// The page path: remote press → the page's element focused in Chromium, beside the
  /// built-in page and the WebSocket floor (skipped without Chromium).
  func runPage() throws -> PageResult? {
    guard BenchBrowser.chromium != nil else {
      Table.line("\nPage path: skipped (chromium is not installed)")
      return nil
    }
    let result = try PageBench.run(samples: pageSamples)
    Table.header(
      "Page path: remote press → element focused in Chromium (\(pageSamples) presses each, "
        + "interleaved; the TenFoot paths pressed from the bench's own remote connection as the "
        + "floor's frames are sent, unless said; µs, and × the floor)",
      ["path", "p50", "p95", "p99", "p50 ×", "p95 ×", "p99 ×"])
    let rows: [(String, PageFigures?)] = [
      ("your page (--app, tenfoot.js)", result.app),
      ("your page, pressed by tenfoot-remote script -", result.appScripted),
      ("built-in web page", result.builtIn), ("floor: bare WebSocket relay", result.floor),
    ]
    for case (let name, let figures?) in rows {
      let ratios = figures.ratios(to: result.floor).map { String(format: "%.2f", $0) }
      Table.row(
        [
          name, "\(figures.p50Microseconds)", "\(figures.p95Microseconds)",
          "\(figures.p99Microseconds)",
        ] + ratios)
    }
    if result.floor.p95Microseconds > 0 {
      let ratio = result.app.p95Microseconds / result.floor.p95Microseconds
      Table.line(String(format: "\nyour page p95 / floor p95: %.2f× (target 1.5×)", ratio))
    }
    for (title, hops) in [
      ("your page", result.appHops),
      ("your page pressed by tenfoot-remote script -", result.appScriptedHops),
      ("the floor", result.floorHops),
    ] where !hops.isEmpty {
      Table.header(
        "Where \(title)'s time goes (µs; each stretch on its own)", ["stretch", "p50", "p95"])
      for hop in hops {
        Table.row([hop.name, "\(hop.p50Microseconds)", "\(hop.p95Microseconds)"])
      }
    }
    return result
  }

  /// Another peer's latency and the broker's memory while one peer abuses its budget.
  func runAbuse() throws -> AbuseResult {
    let options = try abuseBrokerOptions()
    let result = try AbuseBench.run(
      samples: abuseSamples, registrations: abuseRegistrations, brokerOptions: options)
    let kibibytes = (result.abused.first?.registrationBytes ?? 0) / 1024
    let given = BrokerOptions.supported(options).joined(separator: " ")
    Table.header(
      "Abuse: a peer pipelines \(abuseRegistrations) registrations of \(kibibytes) KiB "
        + "(100,000 items) at a CURVE broker with a data directory and its default budgets"
        + (given.isEmpty ? "" : " but \(given)")
        + "; another peer's round trips (\(abuseSamples) each; µs)",
      [
        "phase", "request", "median", "p99", "max", "broker RSS MiB (max)",
        "broker peak MiB (VmHWM)", "abuser sent / answered / rate_limited",
        "broker I/O thread CPU s",
      ])
    var rows = [
      (
        "quiet", result.quietHello, result.quietPress, result.brokerRSSMiBQuiet,
        result.brokerPeakMiBQuiet, "", ""
      )
    ]
    for run in result.abused {
      rows.append(
        (
          "abused, abuser nice \(run.abuserNiceness)", run.hello, run.press, run.brokerRSSMiB,
          run.brokerPeakMiB, "\(run.registrationsSent) / \(run.answered) / \(run.rateLimited)",
          String(format: "%.2f", run.brokerIOThreadSeconds)
        ))
    }
    for (phase, hello, press, rss, peak, abuser, io) in rows {
      for (name, latency) in [("hello", hello), ("press (key-down → ack)", press)] {
        Table.row([
          phase, name, "\(latency.medianMicroseconds)", "\(latency.p99Microseconds)",
          "\(latency.maxMicroseconds)", String(format: "%.1f", rss), String(format: "%.1f", peak),
          abuser, io,
        ])
      }
    }
    Table.line("\ntarget: the other peer's p99 under 5 ms and the broker under 200 MiB")
    return result
  }

  /// `--abuse-broker-option NAME=VALUE` as the broker's (`--NAME`, value).
  func abuseBrokerOptions() throws -> [(String, String?)] {
    try abuseBrokerOption.map { text -> (String, String?) in
      let pair = text.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2, !pair[0].hasPrefix("-") else {
        throw ValidationError("--abuse-broker-option takes NAME=VALUE (io-threads=2), not \(text)")
      }
      return ("--" + pair[0], pair[1])
    }
  }

  /// A well-behaved remote's latency while another floods.
  func runFlood(into results: inout BenchResults) throws {
    Table.header(
      "Flood: a well-behaved remote's input → state applied while another remote sends as "
        + "fast as it can (broker --peer-rate \(FloodBench.brokerDefaultPeerRate), the default; "
        + "\(floodInputs) inputs each; µs)",
      [
        "transport", "phase", "median", "p90", "p99", "p99.9", "max", "flooder msgs/s",
        "flooder acked / answered rate_limited",
      ])
    for transport in BenchProcesses.Transport.allCases {
      // Quick mode (the test suite's smoke run) floods only at nice 19, so it does not take
      // a core from the tests running beside it.
      // Unpaced at nice 0 (it takes a core) and nice 19 (another machine), and paced at
      // 50,000/s, the issue's "tens of thousands of events per second", at nice 0.
      let floods = quick ? [(19, 0)] : [(0, 0), (19, 0), (0, 50_000)]
      for (niceness, rate) in floods {
        let r = try FloodBench.run(
          transport, inputs: floodInputs, warmUp: min(200, floodInputs), niceness: niceness,
          rate: rate)
        let flood =
          "flooded, \(rate == 0 ? "unpaced" : "\(rate / 1000)k/s"), flooder nice \(niceness)"
        for (phase, latency) in [("quiet", r.quiet), (flood, r.flooded)] {
          let flooder =
            latency.path == "quiet"
            ? ["", ""]
            : [
              "\(Int(r.flooderMessagesPerSecond))",
              "\(r.flooderAcknowledged) / \(r.flooderAnsweredRateLimited)",
            ]
          Table.row(
            [
              transport.rawValue, phase, "\(latency.medianMicroseconds)",
              "\(latency.p90Microseconds)", "\(latency.p99Microseconds)",
              "\(latency.p999Microseconds)", "\(latency.maxMicroseconds)",
            ] + flooder)
        }
        results.flood.append(r)
      }
    }
  }
}

extension RunCommand {
  /// Per press, each process and thread: system calls, context switches, CPU (perf stat).
  func runAccounting() throws -> [AccountingBench.Result] {
    let presses = quick ? 200 : accountingPresses
    Table.header(
      "Where a press goes: per press (a press and its release: two requests), each thread on "
        + "the path, counted by perf stat while \(presses) presses run alone on each path; "
        + "client = the remote and screen side (this process), server = the broker or the relay",
      ["path", "transport", "process", "thread", "syscalls", "context switches", "CPU µs"])
    var results: [AccountingBench.Result] = []
    for transport in BenchProcesses.Transport.allCases {
      let result = try AccountingBench.run(transport, warmUp: quick ? 20 : 1_000, presses: presses)
      for path in ["tenfoot", "floor"] {
        let rows = result.rows.filter { $0.path == path }
        for row in rows {
          Table.row([
            path, transport.rawValue, row.process, row.thread, "\(row.syscallsPerPress)",
            "\(row.contextSwitchesPerPress)", "\(row.cpuMicrosecondsPerPress)",
          ])
        }
        func sum(_ value: (AccountingBench.ThreadRow) -> Double) -> String {
          "**\((rows.map(value).reduce(0, +) * 100).rounded() / 100)**"
        }
        Table.row([
          "**\(path)**", transport.rawValue, "all", "all", sum(\.syscallsPerPress),
          sum(\.contextSwitchesPerPress), sum(\.cpuMicrosecondsPerPress),
        ])
      }
      Table.line(
        "\n\(transport.rawValue): press → applied median while counted: TenFoot "
          + "\(result.tenfootMedianMicroseconds) µs, floor \(result.floorMedianMicroseconds) µs")
      results.append(result)
    }
    return results
  }
}
