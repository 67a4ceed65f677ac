import Dispatch
import Foundation
import TestSupport

/// Launch-to-ready time of each program, median of `runs` launches:
/// broker (sockets bound, ready line printed), screen (first frame rendered by the headless
/// renderer), remote (`press menu`: connected, said hello, pressed, printed the result).
enum StartupBench {
  static func run(runs: Int) throws -> [StartupResult] {
    var brokerTimes: [Double] = []
    for _ in 0..<runs {
      let directory = try TemporaryDirectory()
      let broker = try BenchProcesses.broker(.ipc, in: directory)
      brokerTimes.append(Double(broker.startNanoseconds) / 1e6)
      broker.stop()
    }
    let directory = try TemporaryDirectory()
    let broker = try BenchProcesses.broker(.ipc, in: directory)
    defer { broker.stop() }
    let endpoints = ["--control", broker.control, "--state", broker.state]
    let layout = try directory.write("grid.json", TestLayouts.gridJSON(rows: 4, columns: 6))
    var screenTimes: [Double] = []
    for run in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      let screen = try ChildProcess(
        TestEnvironment.binary("tenfoot-screen"),
        ["--id", "start\(run)", "--layout", layout, "--renderer", "headless", "--frames", "-"]
          + endpoints)
      try screen.waitForLine("first frame") { $0.hasPrefix("{") }
      screenTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      screen.kill()
    }
    var remoteTimes: [Double] = []
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      let remote = try ChildProcess(
        TestEnvironment.binary("tenfoot-remote"),
        ["press", "menu", "--screen", "start0"] + endpoints)
      // Until the result line, not the exit: Foundation's waitUntilExit adds up to ~50 ms.
      try remote.waitForLine("the press result") { $0.hasPrefix("menu:") }
      remoteTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      let status = try remote.waitForExit(timeout: 10)
      guard status == 0 else { throw BenchError("tenfoot-remote failed: \(remote.errors)") }
    }
    return [
      result("tenfoot-broker", "sockets bound, ready line printed", brokerTimes),
      result("tenfoot-screen", "registered, first frame rendered (headless)", screenTimes),
      result(
        "tenfoot-remote", "connected, said hello, one press acknowledged and printed", remoteTimes),
    ]
  }

  private static func result(_ process: String, _ ready: String, _ times: [Double])
    -> StartupResult
  {
    let sorted = times.sorted()
    return StartupResult(
      process: process, ready: ready, runs: times.count,
      medianMilliseconds: (sorted[sorted.count / 2] * 10).rounded() / 10,
      maxMilliseconds: ((sorted.last ?? 0) * 10).rounded() / 10)
  }
}
