import BrokerDomain
import Foundation
import TenFootProtocol
import Testing

@testable import BrokerCore

/// The rules of messages sent in parts (`PartAssembly`), in memory, and how a sender cuts a
/// message (`MessageParts`).
@Suite("Messages in parts: the assembly's rules")
struct PartAssemblyTests {
  typealias Assembly = PartAssembly<String>
  static let start = BrokerInstant.origin

  static func assembly(maxBytes: Int = 100, totalBytes: Int = 150) -> Assembly {
    Assembly(maxBytes: maxBytes, totalBytes: totalBytes, maxParts: 8, deadline: .seconds(10))
  }

  @Test("parts in order give the whole message once, at the last part, and free their bytes")
  func inOrder() {
    var parts = Self.assembly()
    let first = parts.add([1, 2], index: 0, count: 3, seq: 7, from: "a", at: Self.start)
    #expect(first == .init(outcome: .waiting))
    #expect(parts.heldBytes == 2 && !parts.isEmpty)
    let second = parts.add([3], index: 1, count: 3, seq: 7, from: "a", at: Self.start)
    #expect(second == .init(outcome: .waiting))
    let last = parts.add([4, 5], index: 2, count: 3, seq: 7, from: "a", at: Self.start)
    #expect(last == .init(outcome: .complete([1, 2, 3, 4, 5])))
    #expect(parts.heldBytes == 0 && parts.isEmpty)
  }

  @Test("a message of one part is whole at once")
  func onePart() {
    var parts = Self.assembly()
    #expect(
      parts.add([9], index: 0, count: 1, seq: 1, from: "a", at: Self.start)
        == .init(outcome: .complete([9])))
    #expect(parts.isEmpty)
  }

  @Test("each connection assembles its own message; another's part does not join it")
  func perConnection() {
    var parts = Self.assembly()
    _ = parts.add([1], index: 0, count: 2, seq: 7, from: "a", at: Self.start)
    // B's part 1 of the same seq: B has no message in progress, so it is out of order.
    #expect(
      parts.add([2], index: 1, count: 2, seq: 7, from: "b", at: Self.start)
        == .init(outcome: .refused(.outOfOrder(expected: 0, got: 1))))
    #expect(
      parts.add([3], index: 1, count: 2, seq: 7, from: "a", at: Self.start)
        == .init(outcome: .complete([1, 3])), "A's message is untouched by B's part")
  }

  @Test("a part out of order discards the message; its later parts are dropped unanswered")
  func outOfOrder() {
    var parts = Self.assembly()
    _ = parts.add([1], index: 0, count: 4, seq: 7, from: "a", at: Self.start)
    #expect(
      parts.add([3], index: 2, count: 4, seq: 7, from: "a", at: Self.start)
        == .init(outcome: .refused(.outOfOrder(expected: 1, got: 2))))
    #expect(parts.isEmpty && parts.heldBytes == 0)
    #expect(
      parts.add([4], index: 3, count: 4, seq: 7, from: "a", at: Self.start)
        == .init(outcome: .ignored))
    // The sender starts again from part 0: taken.
    #expect(
      parts.add([1], index: 0, count: 2, seq: 7, from: "a", at: Self.start)
        == .init(outcome: .waiting))
  }

  @Test("a part refused over budget discards its message; its later parts are dropped unanswered")
  func refusedOverBudget() {
    var parts = Self.assembly()
    _ = parts.add([1], index: 0, count: 3, seq: 7, from: "a", at: Self.start)
    parts.refuse("a", seq: 7)
    #expect(parts.isEmpty && parts.heldBytes == 0)
    #expect(
      parts.add([3], index: 2, count: 3, seq: 7, from: "a", at: Self.start)
        == .init(outcome: .ignored))
    // A refused first part: the same.
    parts.refuse("b", seq: 9)
    #expect(
      parts.add([2], index: 1, count: 3, seq: 9, from: "b", at: Self.start)
        == .init(outcome: .ignored))
  }

  @Test("the first part of another message abandons the incomplete one, which is answered")
  func abandoned() {
    var parts = Self.assembly()
    _ = parts.add([1], index: 0, count: 3, seq: 7, from: "a", at: Self.start)
    let next = parts.add([5], index: 0, count: 2, seq: 8, from: "a", at: Self.start)
    #expect(next == .init(outcome: .waiting, abandoned: 7))
    #expect(parts.heldBytes == 1)
    #expect(
      parts.add([6], index: 1, count: 2, seq: 8, from: "a", at: Self.start)
        == .init(outcome: .complete([5, 6])))
  }

  @Test(
    "counts out of range or changed are refused",
    arguments: [(0, 0), (1, 9), (0, 9)] as [(UInt32, UInt32)])
  func badCount(index: UInt32, count: UInt32) {
    var parts = Self.assembly()
    #expect(
      parts.add([1], index: index, count: count, seq: 1, from: "a", at: Self.start).outcome
        == (index == 0 ? .refused(.badCount(count)) : .refused(.outOfOrder(expected: 0, got: 1))))
    _ = parts.add([1], index: 0, count: 3, seq: 2, from: "b", at: Self.start)
    #expect(
      parts.add([1], index: 1, count: 4, seq: 2, from: "b", at: Self.start)
        == .init(outcome: .refused(.badCount(4))))
  }

  @Test("a message past the bound on one message, or all past the bound in all, is refused")
  func byteBounds() {
    var parts = Self.assembly(maxBytes: 100, totalBytes: 150)
    _ = parts.add(
      [UInt8](repeating: 0, count: 60), index: 0, count: 3, seq: 1, from: "a", at: Self.start)
    #expect(
      parts.add(
        [UInt8](repeating: 0, count: 41), index: 1, count: 3, seq: 1, from: "a", at: Self.start)
        == .init(outcome: .refused(.tooLarge(limit: 100))))
    #expect(parts.heldBytes == 0)
    _ = parts.add(
      [UInt8](repeating: 0, count: 80), index: 0, count: 2, seq: 1, from: "a", at: Self.start)
    #expect(
      parts.add(
        [UInt8](repeating: 0, count: 80), index: 0, count: 2, seq: 1, from: "b", at: Self.start)
        == .init(outcome: .refused(.overBudget(limit: 150))))
    #expect(parts.heldBytes == 80, "A's message is kept")
  }

  @Test("a message whose next part is late expires; one that keeps coming does not")
  func deadline() {
    var parts = Self.assembly()
    _ = parts.add([1], index: 0, count: 3, seq: 4, from: "a", at: Self.start)
    _ = parts.add([1], index: 0, count: 3, seq: 5, from: "b", at: Self.start)
    let later = Self.start.advanced(by: .seconds(6))
    _ = parts.add([2], index: 1, count: 3, seq: 5, from: "b", at: later)
    let expired = parts.expire(at: Self.start.advanced(by: .seconds(10)))
    #expect(expired.map(\.connection) == ["a"] && expired.map(\.seq) == [4])
    #expect(parts.heldBytes == 2)
    #expect(
      parts.add([3], index: 1, count: 3, seq: 4, from: "a", at: later)
        == .init(outcome: .ignored), "the expired message's late parts are dropped")
    #expect(parts.expire(at: later.advanced(by: .seconds(10))).map(\.seq) == [5])
    #expect(parts.isEmpty && parts.heldBytes == 0)
  }

  @Test("a sender cuts a large envelope into parts that add up to it, and peeks find them")
  func cutting() throws {
    var request = Tenfoot_V1_RegisterScreen()
    request.screenID = "main"
    request.layout.items = (0..<50).map { index in
      .with {
        $0.id = "item-\(index)"
        $0.title = String(repeating: "x", count: 40)
      }
    }
    let envelope = Tenfoot_V1_Envelope(
      sender: "s", seq: 42, sentAtNanoseconds: 1, body: .registerScreen(request))
    let whole = envelope.encoded()
    let frames = try #require(MessageParts.frames(of: envelope, partSize: 500))
    #expect(frames.count == (whole.count + 499) / 500)
    var assembly = Self.assembly(maxBytes: 1 << 20, totalBytes: 1 << 20)
    var outcome = PartAssembly<String>.Outcome.waiting
    for frame in frames {
      #expect(MessageParts.isPart(frame))
      let part = try Tenfoot_V1_Envelope.decode(frame)
      guard case .part(let body) = part.body else {
        Issue.record("expected a part, got \(part.bodyName)")
        return
      }
      #expect(part.seq == 42 && body.count == UInt32(frames.count) && body.data.count <= 500)
      outcome =
        assembly.add(
          [UInt8](body.data), index: body.index, count: body.count, seq: part.seq, from: "a",
          at: Self.start
        ).outcome
    }
    #expect(outcome == .complete(whole))
    #expect(!MessageParts.isPart(whole))
    #expect(MessageParts.frames(of: envelope, partSize: whole.count) == [whole])
    #expect(MessageParts.frames(of: envelope, partSize: 1) == nil, "more than the most parts")
    #expect(!MessageParts.isPart([]) && !MessageParts.isPart([0xff, 0xff]))
  }
}
