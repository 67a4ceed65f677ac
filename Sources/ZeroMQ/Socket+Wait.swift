extension Socket {
  /// Waits until this socket has input or `deadline` passes; returns whether it has input.
  ///
  /// For a one-socket wait with a deadline (a request waiting for its reply, a test waiting
  /// for a message): take what is queued with `dontWait`, then call this, until it returns
  /// false.
  public func awaitInput(until deadline: ContinuousClock.Instant) throws(ZeroMQError) -> Bool {
    var poller = Poller()
    poller.add(self)
    return try poller.poll(until: deadline) > 0
  }
}
