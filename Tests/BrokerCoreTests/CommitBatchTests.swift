import TenFootStore
import Testing

@testable import BrokerCore

/// Group commit's bookkeeping, in memory: what goes out after a commit, and what is refused,
/// and dropped after a failed one.
@Suite("Commit batch (group commit bookkeeping)")
struct CommitBatchTests {
  /// Outputs in the test: a reply or a publication, named.
  enum Output: Equatable {
    case reply(String)
    case publish(String)
  }

  /// A batch of three requests: `a` changed twice, `b` read only, a request with no screen.
  func batch() -> CommitBatch<Output> {
    var batch = CommitBatch<Output>()
    batch.change(SessionRow(screenID: "a", focused: "x", selected: []))
    batch.hold(.publish("a-delta-1"), screen: "a")
    batch.hold(.reply("a-ack-1"), screen: "a")
    batch.hold(.reply("b-snapshot"), screen: "b")
    batch.hold(.reply("malformed"), screen: nil)
    batch.change(SessionRow(screenID: "a", focused: "y", selected: []))
    batch.hold(.publish("a-delta-2"), screen: "a")
    batch.hold(.reply("a-ack-2"), screen: "a")
    batch.change(SessionRow(screenID: "new", focused: nil, selected: []))
    batch.hold(.reply("new-ack"), screen: "new")
    return batch
  }

  @Test("after a commit every output goes out in order, and nothing is refused")
  func committed() {
    var batch = batch()
    #expect(batch.changes["a"]?.focused == "y")
    #expect(batch.changes.count == 2)
    let outputs = batch.end(committed: true) { _ in Output.reply("refused") }
    #expect(
      outputs == [
        .publish("a-delta-1"), .reply("a-ack-1"), .reply("b-snapshot"), .reply("malformed"),
        .publish("a-delta-2"), .reply("a-ack-2"), .reply("new-ack"),
      ])
    #expect(batch.isEmpty)
  }

  @Test(
    "after a failed commit the changed screens' replies are refused and their publications dropped"
  )
  func failed() {
    var batch = batch()
    let outputs = batch.end(committed: false) { output in
      guard case .reply(let name) = output else { return nil }
      return .reply("refused:\(name)")
    }
    #expect(
      outputs == [
        .reply("refused:a-ack-1"), .reply("b-snapshot"), .reply("malformed"),
        .reply("refused:a-ack-2"), .reply("refused:new-ack"),
      ])
    #expect(batch.isEmpty)
  }
}
