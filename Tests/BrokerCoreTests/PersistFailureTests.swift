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

  @Test(
    "an activation held for the app's reaction is answered STORE_UNAVAILABLE when its batch cannot be saved, not left waiting",
    .enabled(if: getuid() == 0, "mounting a small tmpfs for the data directory needs root"))
  func heldActivation() throws {
    let directory = try TemporaryDirectory()
    let disk = try SmallFilesystem(at: directory.path + "/data", size: "1m")
    defer { disk.unmount() }
    let harness = try BrokerLoopTests.Harness(transport: "inproc", dataDirectory: disk.path)
    try harness.waitUntilSubscribed()
    _ = try harness.register(TestLayouts.grid(rows: 1, columns: 3))
    // An app attaches: activations now wait for its reaction.
    let attached = try harness.request(
      .snapshotRequest(
        .with {
          $0.screenID = "main"
          $0.app = true
        }))
    #expect(attached.snapshot.focused == "r0c0")
    _ = try harness.key(.select, .down)

    try disk.fill()
    // Selecting the toggle changes its durable selection: the commit fails and the session
    // (with the hold it started) is put back, so the held reply is answered there and then
    // (the harness waits 5 s for it; the app's reaction deadline is 250 ms).
    let refused = try harness.key(.select, .up)
    #expect(refused.error.code == .storeUnavailable, "\(refused.body.debugDescription)")
    let snapshot = try harness.request(.snapshotRequest(.with { $0.screenID = "main" })).snapshot
    #expect(!snapshot.states.contains { $0.state == .selected }, "the selection was applied")

    disk.free()
    _ = try harness.key(.select, .down)
    // Saved now: held for the app, and released at its deadline with the selection applied.
    let accepted = try harness.key(.select, .up)
    #expect(accepted.ack.focused == "r0c0")
    #expect(accepted.ack.effects.contains { $0.activated == "r0c0" }, "\(accepted.ack.effects)")
    // Selected now, so it was not selected before: the refused toggle never happened.
    #expect(
      accepted.ack.effects.contains {
        if case .selectionChanged(let change) = $0.kind { change.selected } else { false }
      },
      "\(accepted.ack.effects)")
  }
}
