import Synchronization

/// The connections the page server holds, in all and by client address: the bookkeeping
/// behind `WebServerLimits.maxConnections` and `maxConnectionsPerAddress`.
final class ConnectionCensus: Sendable {
  private struct State {
    var total = 0
    var byAddress: [String: Int] = [:]
  }

  private let state = Mutex(State())
  /// The limits counted against.
  let limits: WebServerLimits

  /// A census of no connections, for `limits`.
  init(limits: WebServerLimits) {
    self.limits = limits
  }

  /// Takes a place for a connection from `address`; false (and nothing taken) when the
  /// server or that address already holds its limit.
  func admit(_ address: String) -> Bool {
    state.withLock { state in
      let fromAddress = state.byAddress[address, default: 0]
      guard state.total < limits.maxConnections,
        fromAddress < limits.maxConnectionsPerAddress
      else { return false }
      state.total += 1
      state.byAddress[address] = fromAddress + 1
      return true
    }
  }

  /// Gives back the place of a connection from `address` that `admit` let in.
  func leave(_ address: String) {
    state.withLock { state in
      state.total -= 1
      let left = state.byAddress[address, default: 1] - 1
      state.byAddress[address] = left > 0 ? left : nil
      assert(state.total >= 0, "a connection left twice")
    }
  }

  /// The connections open now.
  var open: Int { state.withLock { $0.total } }
}
