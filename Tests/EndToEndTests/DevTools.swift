import Foundation
import HummingbirdWSClient
import TestSupport

/// Hands a non-Sendable test value to a task that uses it while the test waits.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
}

/// The steps a WebSocket handler's closure reached, in order.
final class Steps: @unchecked Sendable {
  // @unchecked Sendable is sound: `steps` is touched only under `lock`.
  private let lock = NSLock()
  private var steps: [String] = []

  func append(_ step: String) { lock.withLock { steps.append(step) } }

  var all: [String] { lock.withLock { steps } }
}

/// Counts messages across the WebSocket handler's closure.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  func add() { lock.withLock { value += 1 } }

  var count: Int { lock.withLock { value } }
}
