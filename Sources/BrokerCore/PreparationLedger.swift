import BrokerDomain
import TenFootProtocol

/// The loop's bookkeeping for messages prepared off the loop (`PreparationWorker`): keeps each
/// connection's messages in arrival order while one of its large messages is being prepared,
/// and bounds what is in flight. Knows neither sockets nor threads.
///
/// Order: once a connection has a message in preparation, its later messages (large or small)
/// queue behind it here and are served only when everything before them was; other
/// connections are served at once. Bounds: the bytes of large messages in flight, per budget
/// (a key, or a connection without one) and in total, and the small messages queued per
/// connection. Over a bound the message is refused (`RATE_LIMITED`): read and freed, so the
/// broker's memory stays bounded whatever a peer pipelines.
struct PreparationLedger<Small> {
  /// A message waiting in a connection's queue.
  enum Entry {
    /// A large message being prepared (job id, its bytes, whose budget they count against).
    case preparing(id: UInt64, bytes: Int, budget: [UInt8])
    /// A large message prepared and ready to apply.
    case prepared(PreparationWorker.Prepared, bytes: Int, budget: [UInt8])
    /// A small message that arrived behind a large one, to serve as usual.
    case small(Small)
  }

  /// The most bytes of large messages in preparation or waiting to apply, per budget.
  let bytesPerBudget: Int
  /// The same, for the whole broker.
  let bytesTotal: Int
  /// The most messages queued per connection behind its large ones.
  let queuedPerConnection: Int

  /// An empty ledger with these bounds.
  init(bytesPerBudget: Int, bytesTotal: Int, queuedPerConnection: Int) {
    self.bytesPerBudget = bytesPerBudget
    self.bytesTotal = bytesTotal
    self.queuedPerConnection = queuedPerConnection
  }

  private(set) var queues: [[UInt8]: [Entry]] = [:]
  private(set) var bytesByBudget: [[UInt8]: Int] = [:]
  private(set) var totalBytes = 0
  private var lastID: UInt64 = 0

  /// Whether no connection has anything waiting (the loop's fast path checks this first).
  var isEmpty: Bool { queues.isEmpty }

  /// Whether `connection` has messages waiting, so its next one must queue behind them.
  func isWaiting(_ connection: [UInt8]) -> Bool { queues[connection] != nil }

  /// Takes a large message of `bytes` from `connection` for preparation: its job id, or why not.
  mutating func startPreparing(connection: [UInt8], budget: [UInt8], bytes: Int)
    -> Result<UInt64, PreparationRefusal>
  {
    let spent = bytesByBudget[budget] ?? 0
    if spent + bytes > bytesPerBudget {
      return .failure(.bytes(inFlight: spent, limit: bytesPerBudget))
    }
    if totalBytes + bytes > bytesTotal {
      return .failure(.bytes(inFlight: totalBytes, limit: bytesTotal))
    }
    lastID += 1
    bytesByBudget[budget] = spent + bytes
    totalBytes += bytes
    queues[connection, default: []].append(.preparing(id: lastID, bytes: bytes, budget: budget))
    return .success(lastID)
  }

  /// Queues a small message behind `connection`'s waiting ones (call only if `isWaiting`).
  mutating func queue(_ small: Small, connection: [UInt8]) -> PreparationRefusal? {
    let smallCount = queues[connection, default: []].count {
      if case .small = $0 { true } else { false }
    }
    if smallCount >= queuedPerConnection { return .queue(limit: queuedPerConnection) }
    queues[connection, default: []].append(.small(small))
    return nil
  }

  /// Records a finished preparation, then returns what its connection may now be served, in
  /// order: the head of its queue up to the first message still in preparation. The bytes of
  /// the prepared messages returned are no longer counted as in flight.
  mutating func finish(_ prepared: PreparationWorker.Prepared) -> [Entry] {
    let connection = prepared.peer
    guard var queue = queues[connection] else { return [] }
    if let index = queue.firstIndex(where: {
      if case .preparing(let id, _, _) = $0 { id == prepared.id } else { false }
    }), case .preparing(_, let bytes, let budget) = queue[index] {
      queue[index] = .prepared(prepared, bytes: bytes, budget: budget)
    }
    var ready: [Entry] = []
    while let head = queue.first {
      if case .preparing = head { break }
      queue.removeFirst()
      if case .prepared(_, let bytes, let budget) = head { release(bytes, budget: budget) }
      ready.append(head)
    }
    queues[connection] = queue.isEmpty ? nil : queue
    return ready
  }

  /// Puts a message `finish` returned back in preparation, at the head of its connection's
  /// queue with `behind` (the rest of what `finish` returned, in order) after it: its second
  /// job (a registration worked out on the session as it is now). The bytes of the prepared
  /// messages put back count as in flight again (they were admitted once, so no bound is
  /// checked).
  mutating func prepareAgain(
    id: UInt64, connection: [UInt8], bytes: Int, budget: [UInt8], behind: [Entry]
  ) {
    let again: [Entry] = [.preparing(id: id, bytes: bytes, budget: budget)] + behind
    for entry in again {
      switch entry {
      case .preparing(_, let bytes, let budget), .prepared(_, let bytes, let budget):
        bytesByBudget[budget, default: 0] += bytes
        totalBytes += bytes
      case .small: break
      }
    }
    queues[connection] = again + (queues[connection] ?? [])
  }

  private mutating func release(_ bytes: Int, budget: [UInt8]) {
    totalBytes -= bytes
    let left = (bytesByBudget[budget] ?? 0) - bytes
    bytesByBudget[budget] = left > 0 ? left : nil
  }
}

/// Why `PreparationLedger` did not take a message.
enum PreparationRefusal: Error, Equatable {
  /// The budget's or the broker's bytes in flight would exceed the bound.
  case bytes(inFlight: Int, limit: Int)
  /// The connection already has this many small messages queued.
  case queue(limit: Int)
}
