import TestSupport
import Testing

/// kill -9 under load: several remotes toggle selections on many screens, the broker dies at
/// a random moment, and its restart on the same data directory must hold every acknowledged
/// change and nothing half-applied. `tenfoot-bench --only crash` runs many more rounds.
@Suite("Crash test with load", .serialized)
struct CrashTests {
  @Test("every acknowledged change survives kill -9 under load; nothing is half-applied")
  func killUnderLoad() throws {
    var configuration = CrashTrial.Configuration()
    configuration.rounds = 4
    let outcome = try CrashTrial.run(
      configuration, broker: TestEnvironment.binary("tenfoot-broker"))
    print(
      "crash test: \(outcome.rounds) kills under load, \(outcome.acknowledged) acknowledged "
        + "requests, \(outcome.inFlight) in flight at the kills (\(outcome.inFlightApplied) "
        + "found applied), \(outcome.screensChecked) screen states checked, "
        + "\(outcome.failures.count) failures")
    #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "\n"))")
    #expect(outcome.rounds == 4)
    #expect(outcome.screensChecked == 4 * configuration.screens)
    // The kills came under load: requests were acknowledged in every round, on average.
    #expect(outcome.acknowledged >= 4 * configuration.remotes, "\(outcome.acknowledged)")
  }
}
