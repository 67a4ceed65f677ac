/// One way to carry a remote's input over the two hops (remote DEALER → ROUTER, then PUB →
/// screen SUB) and see it arrive: TenFoot's real path or the bare ZeroMQ floor.
protocol TwoHopPath {
  /// Sends input number `index` from the remote.
  mutating func send(index: Int) throws
  /// Waits up to `timeout` until the screen side has applied the publication the
  /// last input caused; false on timeout.
  mutating func awaitApplied(timeout: Duration) throws -> Bool
  /// Waits up to `timeout` for the remote's reply; false on timeout.
  mutating func awaitReply(timeout: Duration) throws -> Bool
}
