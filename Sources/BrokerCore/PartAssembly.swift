import BrokerDomain

/// The loop's bookkeeping for control messages sent in parts (`MessagePart`): gathers each
/// connection's parts until its message is whole, then hands the whole bytes back to be served
/// as if they had come in one message. Knows neither sockets nor the wire's types.
///
/// Rules (docs/protocol.md, "Large messages in parts"): a connection assembles one message at a
/// time; its parts come in order, index 0 to count − 1, all with the message's seq and count.
/// A part that breaks a rule discards the message (nothing of it is served) and is answered
/// with the refusal: out of order, a count out of range or changed, more bytes than `maxBytes`,
/// or more than `totalBytes` for all connections' incomplete messages together. A part of
/// another message discards the incomplete one (`abandoned`, answered too) and is taken on its
/// own merits. A message whose next part has not come within `deadline` of the last one is
/// discarded by `expire`. The remaining parts of a discarded message (its seq, index > 0) are
/// dropped unanswered: its sender was told once.
struct PartAssembly<Connection: Hashable> {
  /// Why a part discarded its message.
  enum Refusal: Error, Equatable {
    /// The part's index is not the next one (`expected`; 0 when no message is incomplete).
    case outOfOrder(expected: UInt32, got: UInt32)
    /// The count is 0, over the most parts, not above the index, or not the first part's.
    case badCount(UInt32)
    /// The whole message would exceed the bound on one message (`limit` bytes).
    case tooLarge(limit: Int)
    /// All connections' incomplete messages would exceed the bound in all (`limit` bytes).
    case overBudget(limit: Int)
    /// The first part of another message came before this one was whole.
    case abandoned
    /// No part came within the deadline.
    case expired
    /// The whole message is itself a part (found by the broker once it is whole).
    case nested
  }

  /// What adding a part did.
  enum Outcome: Equatable {
    /// The message is still incomplete.
    case waiting
    /// The last part arrived: the whole message.
    case complete([UInt8])
    /// The part was refused and its message discarded.
    case refused(Refusal)
    /// A later part of a message already refused: dropped unanswered.
    case ignored
  }

  /// What adding a part did, and the seq of the connection's incomplete message it discarded
  /// (`abandoned`: a part of another message came first), whose sender waits for an answer.
  struct Added: Equatable {
    var outcome: Outcome
    var abandoned: UInt64? = nil
  }

  /// One connection's incomplete message.
  private struct Incomplete {
    var seq: UInt64
    var count: UInt32
    var next: UInt32
    var bytes: [UInt8]
    var lastPart: BrokerInstant
  }

  /// The most bytes of one whole message.
  let maxBytes: Int
  /// The most bytes of all incomplete messages together.
  let totalBytes: Int
  /// The most parts of one message.
  let maxParts: UInt32
  /// How long a message may wait for its next part.
  let deadline: Duration

  private var incomplete: [Connection: Incomplete] = [:]
  /// Per connection, the seq of its last discarded message (its later parts are ignored).
  private var discarded: [Connection: UInt64] = [:]
  /// The most connections whose discarded message's seq is remembered.
  static var discardedLimit: Int { 4096 }
  /// The bytes held for all incomplete messages.
  private(set) var heldBytes = 0

  /// An empty assembly with these bounds.
  init(maxBytes: Int, totalBytes: Int, maxParts: UInt32, deadline: Duration) {
    self.maxBytes = maxBytes
    self.totalBytes = totalBytes
    self.maxParts = maxParts
    self.deadline = deadline
  }

  /// Whether no message is incomplete (the loop's fast path checks this first).
  var isEmpty: Bool { incomplete.isEmpty }

  /// Adds part `index` of `count` of message `seq` from `connection`, received `now`.
  mutating func add(
    _ data: [UInt8], index: UInt32, count: UInt32, seq: UInt64, from connection: Connection,
    at now: BrokerInstant
  ) -> Added {
    var abandoned: UInt64?
    if let message = incomplete[connection], message.seq != seq {
      discard(connection)
      abandoned = message.seq
    } else if index > 0, incomplete[connection] == nil, discarded[connection] == seq {
      return Added(outcome: .ignored)
    }
    let outcome = append(data, index: index, count: count, seq: seq, from: connection, at: now)
    if case .refused = outcome {
      remember(seq, discardedBy: connection)
    } else {
      discarded[connection] = nil
    }
    return Added(outcome: outcome, abandoned: abandoned)
  }

  /// `add` once the connection holds no other message: checks the part against the rules.
  private mutating func append(
    _ data: [UInt8], index: UInt32, count: UInt32, seq: UInt64, from connection: Connection,
    at now: BrokerInstant
  ) -> Outcome {
    let held = incomplete[connection]
    let expected = held?.next ?? 0
    guard index == expected else {
      discard(connection)
      return .refused(.outOfOrder(expected: expected, got: index))
    }
    guard count > index, count <= maxParts, held.map({ $0.count == count }) ?? true else {
      discard(connection)
      return .refused(.badCount(count))
    }
    let size = (held?.bytes.count ?? 0) + data.count
    guard size <= maxBytes, heldBytes + data.count <= totalBytes else {
      discard(connection)
      return .refused(size > maxBytes ? .tooLarge(limit: maxBytes) : .overBudget(limit: totalBytes))
    }
    if index + 1 == count {
      var whole = discard(connection) ?? []
      whole.append(contentsOf: data)
      return .complete(whole)
    }
    var message =
      incomplete.removeValue(forKey: connection)
      ?? Incomplete(seq: seq, count: count, next: 0, bytes: [], lastPart: now)
    message.bytes.append(contentsOf: data)
    message.next = index + 1
    message.lastPart = now
    heldBytes += data.count
    incomplete[connection] = message
    return .waiting
  }

  /// Discards `connection`'s message `seq` because one of its parts was refused before it was
  /// read (over the peer's budget, answered so): its later parts are dropped unanswered.
  mutating func refuse(_ connection: Connection, seq: UInt64) {
    discard(connection)
    remember(seq, discardedBy: connection)
  }

  private mutating func remember(_ seq: UInt64, discardedBy connection: Connection) {
    // One seq per connection; connections that come and go must not grow it for ever.
    if discarded.count >= Self.discardedLimit { discarded.removeAll() }
    discarded[connection] = seq
  }

  /// Discards `connection`'s incomplete message; returns its bytes.
  @discardableResult
  mutating func discard(_ connection: Connection) -> [UInt8]? {
    guard let message = incomplete.removeValue(forKey: connection) else { return nil }
    heldBytes -= message.bytes.count
    return message.bytes
  }

  /// Discards the messages whose next part did not come within the deadline: their
  /// connections and seqs, to answer `expired`.
  mutating func expire(at now: BrokerInstant) -> [(connection: Connection, seq: UInt64)] {
    let late = incomplete.filter { $0.value.lastPart.advanced(by: deadline) <= now }
    for (connection, message) in late {
      discard(connection)
      discarded[connection] = message.seq
    }
    return late.map { ($0.key, $0.value.seq) }
  }
}
