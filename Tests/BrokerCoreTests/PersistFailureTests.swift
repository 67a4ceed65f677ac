import BrokerDomain
import FocusEngine
import Foundation
import Logging
import TenFootProtocol
import TenFootStore
import TestSupport
import Testing

@testable import BrokerCore

/// A change the broker cannot make durable is rolled back: not applied, not published, and
/// answered STORE_UNAVAILABLE; once the disk has room again, the broker serves from what is
/// durable.
@Suite("Broker: a change that cannot be saved is not applied", .serialized)
struct PersistFailureTests {
  @Test(
    "with the data directory's disk full a press is refused, publishes nothing and changes nothing",
    .enabled(if: getuid() == 0, "mounting a small tmpfs for the data directory needs root"))
  func rollback() throws {
    let directory = try TemporaryDirectory()
    let disk = try SmallFilesystem(at: directory.path + "/data", size: "1m")
    defer { disk.unmount() }
    let harness = try BrokerLoopTests.Harness(transport: "inproc", dataDirectory: disk.path)
    try harness.waitUntilSubscribed()
    _ = try harness.register(TestLayouts.grid(rows: 1, columns: 3))
    #expect(try harness.nextScreenState().snapshot.seq == 1)

    try disk.fill()
    let refused = try harness.key(.right, .down)
    guard case .error(let error) = refused.body else {
      Issue.record("a change that could not be saved was acknowledged: \(refused)")
      return
    }
    #expect(error.code == .storeUnavailable)
    let snapshot = try harness.request(.snapshotRequest(.with { $0.screenID = "main" })).snapshot
    #expect(snapshot.focused == "r0c0" && snapshot.seq == 1, "the press was not applied")

    disk.free()
    let accepted = try harness.key(.right, .down)
    #expect(accepted.ack.focused == "r0c1" && accepted.ack.stateSeq == 2)
    // The first state published after the snapshot is this press's: the refused one never was.
    let delta = try harness.nextScreenState().delta
    #expect(delta.seq == 2 && delta.focused == "r0c1")
    // The broker holds its database exclusively while it runs: stop it, then read what it saved.
    harness.broker.stopper.stop()
    harness.broker.wait()
    let saved = try SessionStore(directory: disk.path, logger: Logger(label: "test")).records
    #expect(saved["main"]?.focused == "r0c1")
  }
}
