import TenFootStore
import Testing

@testable import BrokerCore

/// Group commit's bookkeeping, in memory: what goes out after a commit, and what is refused,
/// dropped and rolled back after a failed one.
@Suite("Commit batch (group commit bookkeeping)")
struct CommitBatchTests {
  /// Outputs in the test: a reply or a publication, named.
  enum Output: Equatable {
    case reply(String)
    case publish(String)
  }

  /// A batch from state 1: a press on `a` (changed twice), a snapshot of `b`, a malformed frame
  /// refused before the domain, and a new screen's registration.
  func batch() -> CommitBatch<Int, Output> {
    var batch = CommitBatch<Int, Output>()
    batch.begin(1)
    batch.change(SessionRow(screenID: "a", focused: "x", selected: []))
    batch.hold(.publish("a-delta-1"), handled: true)
    batch.hold(.reply("a-ack-1"), handled: true)
    batch.hold(.reply("b-snapshot"), handled: true)
    batch.hold(.reply("malformed"), handled: false)
    batch.change(SessionRow(screenID: "a", focused: "y", selected: []))
    batch.hold(.publish("a-delta-2"), handled: true)
    batch.hold(.reply("a-ack-2"), handled: true)
    batch.change(SessionRow(screenID: "new", focused: nil, selected: []))
    batch.hold(.reply("new-ack"), handled: true)
    return batch
  }

  @Test("after a commit every output goes out in order, and nothing rolls back")
  func committed() {
    var batch = batch()
    #expect(batch.changes["a"]?.focused == "y", "a screen's latest row is written")
    #expect(batch.changes.count == 2)
    let ending = batch.end(committed: true) { _ in Output.reply("refused") }
    #expect(
      ending.outputs == [
        .publish("a-delta-1"), .reply("a-ack-1"), .reply("b-snapshot"), .reply("malformed"),
        .publish("a-delta-2"), .reply("a-ack-2"), .reply("new-ack"),
      ])
    #expect(ending.rollback == nil)
    #expect(batch.isEmpty)
  }

  @Test(
    "after a failed commit the state before the batch comes back, handled replies are refused and publications dropped"
  )
  func failed() {
    var batch = batch()
    let ending = batch.end(committed: false) { output in
      guard case .reply(let name) = output else { return nil }
      return .reply("refused:\(name)")
    }
    #expect(
      ending.outputs == [
        .reply("refused:a-ack-1"), .reply("refused:b-snapshot"), .reply("malformed"),
        .reply("refused:a-ack-2"), .reply("refused:new-ack"),
      ])
    #expect(ending.rollback == 1)
    #expect(batch.isEmpty)
  }
}
