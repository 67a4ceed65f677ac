import Foundation
import TestSupport
import Testing

/// Measures the round trip a person feels: a key line handed to a running `tenfoot-remote` →
/// broker → screen frame printed. Prints figures; asserts only that every press arrived, in
/// order (speed targets belong in benchmarks, not in pass/fail tests).
@Suite("Press-to-frame round trip (prints figures)", .serialized)
struct PressLatencyTests {
  @Test("remote press → broker → screen frame, over ipc and tcp", arguments: Network.allCases)
  func roundTrip(_ network: Network) throws {
    let stack = try Stack(network)
    let screen = try stack.screen(["--layout", try stack.layoutFile(rows: 1, columns: 2)])
    var (index, _) = try screen.waitForFrame("first frame") { $0.focused == "r0c0" }

    let input = Pipe()
    let remote = try ChildProcess(
      TestEnvironment.binary("tenfoot-remote"), ["script", "-"] + stack.endpointArguments,
      environment: stack.environment, stdin: input.fileHandleForReading)
    defer { try? input.fileHandleForWriting.close() }

    let presses = 300
    let warmUp = 20
    var samples: [Double] = []
    samples.reserveCapacity(presses)
    for press in 0..<(warmUp + presses) {
      let key = press.isMultiple(of: 2) ? "right" : "left"
      let target = press.isMultiple(of: 2) ? "r0c1" : "r0c0"
      let start = DispatchTime.now().uptimeNanoseconds
      input.fileHandleForWriting.write(Data("\(key)\n".utf8))
      (index, _) = try screen.waitForFrame(from: index + 1, "press \(press): \(target) focused") {
        $0.focused == target
      }
      if press >= warmUp {
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
      }
    }
    try input.fileHandleForWriting.close()
    #expect(try remote.waitForExit(timeout: 10) == 0, "remote: \(remote.errors)")
    #expect(remote.output.count == warmUp + presses)

    samples.sort()
    func percentile(_ p: Double) -> Double {
      samples[min(samples.count - 1, Int((Double(samples.count) * p).rounded(.up)) - 1)]
    }
    let line = String(
      format: "press→frame over %@: n=%d median %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms",
      network.rawValue, samples.count, percentile(0.5), percentile(0.9), percentile(0.99),
      samples[samples.count - 1])
    print(line)
  }
}
