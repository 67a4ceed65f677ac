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

  /// A batch of three requests: `a` changed twice, `b` read only, a request with no screen.
  func batch() -> CommitBatch<Int, Output> {
    var batch = CommitBatch<Int, Output>()
    batch.touch("a", current: 1)
    batch.change(SessionRow(screenID: "a", focused: "x", selected: []))
    batch.hold(.publish("a-delta-1"), screen: "a")
    batch.hold(.reply("a-ack-1"), screen: "a")
    batch.touch("b", current: 7)
    batch.hold(.reply("b-snapshot"), screen: "b")
    batch.hold(.reply("malformed"), screen: nil)
    batch.touch("a", current: 2)  // Second touch: the value before the batch stays 1.
    batch.change(SessionRow(screenID: "a", focused: "y", selected: []))
    batch.hold(.publish("a-delta-2"), screen: "a")
    batch.hold(.reply("a-ack-2"), screen: "a")
    batch.touch("new", current: nil)
    batch.change(SessionRow(screenID: "new", focused: nil, selected: []))
    batch.hold(.reply("new-ack"), screen: "new")
    return batch
  }

  @Test("after a commit every output goes out in order, and nothing rolls back")
  func committed() {
    var batch = batch()
    #expect(batch.changes["a"]?.focused == "y")
    #expect(batch.changes.count == 2)
    let ending = batch.end(committed: true) { _ in Output.reply("refused") }
    #expect(
      ending.outputs == [
        .publish("a-delta-1"), .reply("a-ack-1"), .reply("b-snapshot"), .reply("malformed"),
        .publish("a-delta-2"), .reply("a-ack-2"), .reply("new-ack"),
      ])
    #expect(ending.rollback.isEmpty)
    #expect(batch.isEmpty)
  }

  @Test(
    "after a failed commit changed screens roll back, their replies are refused and their publications dropped"
  )
  func failed() {
    var batch = batch()
    let ending = batch.end(committed: false) { output in
      guard case .reply(let name) = output else { return nil }
      return .reply("refused:\(name)")
    }
    #expect(
      ending.outputs == [
        .reply("refused:a-ack-1"), .reply("b-snapshot"), .reply("malformed"),
        .reply("refused:a-ack-2"), .reply("refused:new-ack"),
      ])
    #expect(ending.rollback.count == 2)
    #expect(ending.rollback["a"] == .some(1))
    #expect(ending.rollback["new"] == .some(nil))
    #expect(ending.rollback["b"] == nil)
    #expect(batch.isEmpty)
  }
}
